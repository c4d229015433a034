package io.mclb.cli;

import io.mclb.config.ConfigFiles;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where {@code show} and {@code reload} find the admin listener: {@code -c FILE}, {@code --admin}, or the default. */
public final class AdminTarget {
    private static final Pattern ADMIN_LINE = Pattern.compile("^\\s*mclb\\s+admin\\s+(\\S+)\\s+(\\d+)\\s*$",
            Pattern.CASE_INSENSITIVE);

    @Option(names = {"-c", "--config"}, description = "configuration file whose 'mclb admin' line names the listener")
    Path config;

    /** Where {@code mclb demo} and a configuration without {@code mclb admin} listen. */
    static final String DEFAULT = "127.0.0.1:8080";

    @Option(names = "--admin", description = "admin listener HOST:PORT (default " + DEFAULT
            + ", the demo's and that of a configuration without 'mclb admin')")
    String admin;

    public String baseUrl() throws IOException {
        InetSocketAddress a = resolve();
        String host = a.getHostString();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort();
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
}
