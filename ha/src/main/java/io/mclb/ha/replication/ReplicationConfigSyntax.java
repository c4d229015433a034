package io.mclb.ha.replication;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.CiscoType7;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.SourceRef;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Claims {@code replicate casa ...} in vservers and the global {@code mclb replicate tls ...}, read
 * once into records: a {@link ReplicationConfig} (without TLS) and a {@link ReplicationConfig.TlsFiles}
 * with its paths as written. Values are read with {@link Args}.
 *
 * <p>Rules checked in {@link #validate}: every vserver's {@code replicate casa} line is the same
 * (mclb has one sticky table, so one replication stream; IOS set it per vserver), at most one TLS
 * line, the TLS files are readable, and a stream with neither password nor TLS is a warning
 * (anyone reaching the port could feed the standby).
 */
public final class ReplicationConfigSyntax implements ConfigSyntax {
    public static final String OWNER = "ha-replication";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        if (block == ConfigBlock.VSERVER && line.is(0, "replicate") && line.is(1, "casa")) {
            return Claim.of(replicate(line.tokens()));
        }
        if (block == ConfigBlock.GLOBAL && line.is(0, "mclb") && line.is(1, "replicate")) {
            return Claim.of(tls(line.tokens()));
        }
        return Claim.notMine();
    }

    /** {@code replicate casa LISTEN-IP REMOTE-IP PORT [INTERVAL] [password [0|7] PW [TIMEOUT]]}. */
    static ReplicationConfig replicate(List<String> t) throws BadLine {
        if (!Args.is(t, 1, "casa")) {
            throw new BadLine("replicate" + (t.size() > 1 ? " " + t.get(1) : "")
                    + ": allowed 'replicate casa LISTEN-IP REMOTE-IP PORT [INTERVAL] [password [0|7] PW [TIMEOUT]]'");
        }
        InetAddress listen = Args.address(t, 2, "replicate casa LISTEN-IP");
        InetAddress remote = Args.address(t, 3, "replicate casa REMOTE-IP");
        if (listen.getClass() != remote.getClass()) {
            throw new BadLine("replicate casa " + t.get(2) + " " + t.get(3)
                    + ": LISTEN-IP and REMOTE-IP must both be IPv4 or both IPv6");
        }
        int port = Args.integer(t, 4, "replicate casa port", 1, 65535);
        int i = 5;
        int interval = ReplicationConfig.DEFAULT_INTERVAL_SECONDS;
        if (i < t.size() && !Args.is(t, i, "password")) {
            interval = Args.integer(t, i, "replicate casa interval", 1, 300);
            i++;
        }
        String password = null;
        int timeout = ReplicationConfig.DEFAULT_PASSWORD_TIMEOUT_SECONDS;
        if (i < t.size()) {
            if (!Args.is(t, i, "password")) {
                throw new BadLine("replicate casa: unexpected '" + t.get(i) + "', allowed 'password'");
            }
            i++;
            // not Args.secret: a TIMEOUT may follow, and a lone 0 or 7 is the password itself
            boolean typed = i + 1 < t.size() && (t.get(i).equals("0") || t.get(i).equals("7"));
            boolean type7 = typed && t.get(i).equals("7");
            i += typed ? 1 : 0;
            password = Args.token(t, i, "replicate casa password", "value");
            password = type7 ? type7(password) : password;
            i++;
            if (i < t.size()) {
                timeout = Args.integer(t, i, "replicate casa password timeout", 1, 65535);
                i++;
            }
        }
        Args.end(t, i - 1, "replicate casa");
        return new ReplicationConfig(listen, remote, port, Duration.ofSeconds(interval), password,
                Duration.ofSeconds(timeout), null, ReplicationConfig.DEFAULT_QUEUE_CAPACITY,
                ReplicationConfig.DEFAULT_RECONNECT_DELAY);
    }

    private static String type7(String obfuscated) throws BadLine {
        try {
            return CiscoType7.decode(obfuscated);
        } catch (IllegalArgumentException e) {
            throw new BadLine("replicate casa password 7 ***: not a type 7 string (" + e.getMessage() + ")");
        }
    }

    private static final String TLS_USAGE = "allowed 'mclb replicate tls cert PEMFILE key PEMFILE ca PEMFILE'";

    /** {@code mclb replicate tls cert FILE key FILE ca FILE}, keywords in any order, each once; paths as written. */
    static ReplicationConfig.TlsFiles tls(List<String> t) throws BadLine {
        if (t.size() != 9 || !Args.is(t, 2, "tls")) {
            throw new BadLine(String.join(" ", t) + ": " + TLS_USAGE);
        }
        Path cert = null;
        Path key = null;
        Path ca = null;
        for (int i = 3; i < 9; i += 2) {
            String k = Args.word(t, i);
            Path p;
            try {
                p = Path.of(t.get(i + 1));
            } catch (InvalidPathException e) {
                throw new BadLine("mclb replicate tls " + k + " " + t.get(i + 1) + ": not a valid path");
            }
            switch (k) {
                case "cert" -> cert = once(cert, p, k);
                case "key" -> key = once(key, p, k);
                case "ca" -> ca = once(ca, p, k);
                default -> throw new BadLine("mclb replicate tls: unknown keyword '" + t.get(i) + "', " + TLS_USAGE);
            }
        }
        return new ReplicationConfig.TlsFiles(cert, key, ca);
    }

    private static Path once(Path before, Path p, String keyword) throws BadLine {
        if (before != null) {
            throw new BadLine("mclb replicate tls: '" + keyword + "' given twice, " + TLS_USAGE);
        }
        return p;
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        ExtensionLine first = null;
        for (VirtualServerConfig v : config.vservers().values()) {
            for (ExtensionLine x : v.extensions()) {
                if (!(x.record() instanceof ReplicationConfig r)) {
                    continue;
                }
                if (first == null) {
                    first = x;
                } else if (!r.equals(first.record())) {
                    errors.error(x.source(), "vserver " + v.name() + ": replicate casa differs from line "
                            + first.source().line() + "; all virtual servers share one sticky table and one "
                            + "replication stream, allowed the same replicate casa line in every vserver");
                }
            }
        }
        List<ExtensionLine> tls = config.globalExtensions(OWNER);
        for (int i = 1; i < tls.size(); i++) {
            errors.error(tls.get(i).source(), "mclb replicate tls: given twice, first at line "
                    + tls.get(0).source().line());
        }
        Path base = config.sourceFile() == null ? null : config.sourceFile().toAbsolutePath().getParent();
        if (!tls.isEmpty() && tls.get(0).record() instanceof ReplicationConfig.TlsFiles written) {
            SourceRef at = tls.get(0).source();
            ReplicationConfig.TlsFiles f = written.resolvedAgainst(base);
            readable(at, "cert", f.cert(), errors);
            readable(at, "key", f.key(), errors);
            readable(at, "ca", f.ca(), errors);
            if (first == null) {
                errors.warning(at, "mclb replicate tls: no vserver has a replicate casa line");
            }
        }
        if (first != null && tls.isEmpty() && ((ReplicationConfig) first.record()).password() == null) {
            errors.warning(first.source(), "replicate casa without password or mclb replicate tls: the "
                    + "replication stream is not authenticated");
        }
    }

    private static void readable(SourceRef at, String what, Path p, ErrorSink errors) {
        if (!Files.isReadable(p)) {
            errors.error(at, "mclb replicate tls " + what + " " + p + ": file not readable");
        }
    }
}
