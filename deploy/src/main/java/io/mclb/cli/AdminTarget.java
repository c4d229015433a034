package io.mclb.cli;

import io.mclb.config.ConfigFiles;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where {@code show}, {@code reload} and {@code failover} find the running mclb: {@code --admin}
 * (TCP, with {@code --token-file} for state changes), {@code --socket}, {@code -c FILE} (its data
 * directory's local socket {@code admin.sock}, else its {@code mclb admin} line over TCP), or the
 * default {@code 127.0.0.1:8080}.
 */
public final class AdminTarget {
    private static final Pattern ADMIN_LINE = Pattern.compile("^\\s*mclb\\s+admin\\s+(\\S+)\\s+(\\d+)\\s*$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DATA_DIR_LINE = Pattern.compile("^\\s*mclb\\s+data-dir\\s+(\\S+)\\s*$",
            Pattern.CASE_INSENSITIVE);

    @Option(names = {"-c", "--config"}, description = "configuration file: the local socket in its 'mclb data-dir'"
            + " (admin.sock), else the listener of its 'mclb admin' line")
    Path config;

    /** Where {@code mclb demo} and a configuration without {@code mclb admin} listen. */
    static final String DEFAULT = "127.0.0.1:8080";

    @Option(names = "--admin", description = "admin listener HOST:PORT over TCP (https://HOST:PORT with TLS; default "
            + DEFAULT + ", the demo's and that of a configuration without 'mclb admin')")
    String admin;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "over TCP, send this file's token (the server's 'mclb admin token') with reload and failover")
    Path tokenFile;

    @Option(names = "--socket", paramLabel = "PATH",
            description = "the running mclb's local admin socket (default DATA_DIR/admin.sock of -c FILE)")
    Path socket;

    @Option(names = "--cacert", paramLabel = "FILE", description = "with https: trust this PEM certificate (or CA)")
    Path caCert;

    public String baseUrl() throws IOException {
        if (admin != null && (admin.startsWith("https://") || admin.startsWith("http://"))) {
            return admin.endsWith("/") ? admin.substring(0, admin.length() - 1) : admin;
        }
        InetSocketAddress a = resolve();
        String host = a.getHostString();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort();
    }

    /** The client for the chosen target. */
    AdminClient client() throws IOException {
        String token = tokenFile == null ? null : Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        if (admin != null) {
            return new AdminClient(null, baseUrl(), token, caCert);
        }
        if (socket != null) {
            return new AdminClient(socket, null, null, null);
        }
        if (config != null) {
            return new AdminClient(dataDir(config).resolve("admin.sock"), baseUrl(), token, caCert);
        }
        return new AdminClient(null, baseUrl(), token, caCert);
    }

    InetSocketAddress resolve() throws IOException {
        if (admin != null) {
            int i = admin.lastIndexOf(':');
            if (i <= 0) {
                throw new IllegalArgumentException("--admin " + admin + ": expected HOST:PORT");
            }
            String host = admin.substring(0, i).replace("[", "").replace("]", "");
            return InetSocketAddress.createUnresolved(host, Integer.parseInt(admin.substring(i + 1)));
        }
        if (config != null) {
            for (String line : ConfigFiles.read(config).split("\n")) {
                Matcher m = ADMIN_LINE.matcher(line);
                if (m.matches()) {
                    return InetSocketAddress.createUnresolved(m.group(1), Integer.parseInt(m.group(2)));
                }
            }
        }
        return InetSocketAddress.createUnresolved("127.0.0.1", 8080);
    }

    /** The file's data directory as the server resolves it: relative to the file, {@code data} by default. */
    static Path dataDir(Path config) throws IOException {
        Path base = config.toAbsolutePath().getParent();
        String dir = "data";
        for (String line : ConfigFiles.read(config).split("\n")) {
            Matcher m = DATA_DIR_LINE.matcher(line);
            if (m.matches()) {
                dir = m.group(1);
            }
        }
        Path p = Path.of(dir);
        return p.isAbsolute() ? p : base.resolve(p).normalize();
    }
}
