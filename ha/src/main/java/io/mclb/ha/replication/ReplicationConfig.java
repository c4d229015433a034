package io.mclb.ha.replication;

import io.mclb.config.CiscoType7;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Stateful backup settings: the vserver line
 * {@code replicate casa LISTEN-IP REMOTE-IP PORT [INTERVAL] [password [0|7] PW [TIMEOUT]]} plus
 * the optional global {@code mclb replicate tls cert PEM key PEM ca PEM}.
 *
 * <p>Roles: whichever node is active listens on {@code LISTEN-IP:PORT} and accepts only
 * {@code REMOTE-IP}; the standby connects from its own {@code LISTEN-IP} to {@code REMOTE-IP:PORT}.
 * The two nodes therefore carry mirrored lines (IOS practice), and either can take either role.
 *
 * @param listenAddress   this node's address: bound by the active's listener and by the standby's socket
 * @param remoteAddress   the peer: the only address the active accepts, the one the standby connects to
 * @param port            TCP port on both nodes (1..65535; 0 only in tests: an ephemeral port)
 * @param interval        heartbeat period when no change flows (IOS INTERVAL, 1..300 s, default 10); a
 *                        standby that hears nothing for three intervals reconnects and resyncs
 * @param password        the shared secret keying the per-frame HMAC (type 7 already decoded); null = none,
 *                        frames are then checked for integrity only (validation warns unless TLS is on)
 * @param passwordTimeout IOS's TIMEOUT (default 180 s): after a reload changes the password, the previous
 *                        one stays valid this long, so the peer can be changed later without losing the
 *                        stream (see {@link StickyReplicator#rollOver})
 * @param tls             mutual TLS files, or null for plain TCP
 * @param queueCapacity   changes buffered on the active before "resync needed" (power of two)
 * @param reconnectDelay  how long the standby waits before connecting again after a failure
 */
public record ReplicationConfig(InetAddress listenAddress, InetAddress remoteAddress, int port, Duration interval,
                                String password, Duration passwordTimeout, TlsFiles tls, int queueCapacity,
                                Duration reconnectDelay) {

    public static final int DEFAULT_INTERVAL_SECONDS = 10;
    public static final int DEFAULT_PASSWORD_TIMEOUT_SECONDS = 180;
    public static final int DEFAULT_QUEUE_CAPACITY = 1 << 16;
    public static final Duration DEFAULT_RECONNECT_DELAY = Duration.ofSeconds(1);

    /** PEM files for mutual TLS: this node's certificate and key, and the CA both nodes' certificates chain to. */
    public record TlsFiles(Path cert, Path key, Path ca) {
    }

    public ReplicationConfig {
        if (Integer.bitCount(queueCapacity) != 1) {
            throw new IllegalArgumentException("queueCapacity must be a power of two: " + queueCapacity);
        }
    }

    public ReplicationConfig withTls(TlsFiles files) {
        return new ReplicationConfig(listenAddress, remoteAddress, port, interval, password, passwordTimeout, files,
                queueCapacity, reconnectDelay);
    }

    public ReplicationConfig withPort(int newPort) {
        return new ReplicationConfig(listenAddress, remoteAddress, newPort, interval, password, passwordTimeout, tls,
                queueCapacity, reconnectDelay);
    }

    public ReplicationConfig withPassword(String newPassword) {
        return new ReplicationConfig(listenAddress, remoteAddress, port, interval, newPassword, passwordTimeout, tls,
                queueCapacity, reconnectDelay);
    }

    /** Tuning for tests and benchmarks: heartbeat interval, reconnect delay and queue size. */
    public ReplicationConfig withTuning(Duration newInterval, Duration newReconnectDelay, int newQueueCapacity) {
        return new ReplicationConfig(listenAddress, remoteAddress, port, newInterval, password, passwordTimeout, tls,
                newQueueCapacity, newReconnectDelay);
    }

    /** A plain configuration with defaults, as {@code replicate casa LISTEN REMOTE PORT password 0 PW} gives. */
    public static ReplicationConfig of(InetAddress listen, InetAddress remote, int port, String password) {
        return new ReplicationConfig(listen, remote, port, Duration.ofSeconds(DEFAULT_INTERVAL_SECONDS), password,
                Duration.ofSeconds(DEFAULT_PASSWORD_TIMEOUT_SECONDS), null, DEFAULT_QUEUE_CAPACITY,
                DEFAULT_RECONNECT_DELAY);
    }

    /**
     * The replication settings of a validated configuration: the first {@code replicate casa} line
     * (validation made every vserver's equal, since all share one sticky table) and the TLS line.
     * Relative PEM paths resolve against the configuration file's directory.
     */
    public static Optional<ReplicationConfig> from(MclbConfig config) {
        Path base = config.sourceFile() == null ? null : config.sourceFile().toAbsolutePath().getParent();
        for (VirtualServerConfig v : config.vservers().values()) {
            for (ExtensionLine x : v.extensions()) {
                if (x.owner().equals(ReplicationConfigSyntax.OWNER)) {
                    ReplicationConfig c = parseReplicate(x.tokens());
                    for (ExtensionLine g : config.globalExtensions(ReplicationConfigSyntax.OWNER)) {
                        c = c.withTls(parseTls(g.tokens(), base));
                    }
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Parses {@code replicate casa ...}.
     *
     * @throws IllegalArgumentException whose message names the offending value and what is allowed
     */
    public static ReplicationConfig parseReplicate(List<String> t) {
        if (t.size() < 2 || !t.get(1).equalsIgnoreCase("casa")) {
            throw new IllegalArgumentException("replicate" + (t.size() > 1 ? " " + t.get(1) : "")
                    + ": allowed 'replicate casa LISTEN-IP REMOTE-IP PORT [INTERVAL] [password [0|7] PW [TIMEOUT]]'");
        }
        InetAddress listen = address(t, 2, "replicate casa LISTEN-IP");
        InetAddress remote = address(t, 3, "replicate casa REMOTE-IP");
        if (listen.getClass() != remote.getClass()) {
            throw new IllegalArgumentException("replicate casa " + t.get(2) + " " + t.get(3)
                    + ": LISTEN-IP and REMOTE-IP must both be IPv4 or both IPv6");
        }
        int port = (int) number(t, 4, "replicate casa port", 1, 65535);
        int i = 5;
        int interval = DEFAULT_INTERVAL_SECONDS;
        if (i < t.size() && !t.get(i).equalsIgnoreCase("password")) {
            interval = (int) number(t, i, "replicate casa interval", 1, 300);
            i++;
        }
        String password = null;
        int timeout = DEFAULT_PASSWORD_TIMEOUT_SECONDS;
        if (i < t.size()) {
            if (!t.get(i).equalsIgnoreCase("password")) {
                throw new IllegalArgumentException("replicate casa: unexpected '" + t.get(i) + "', allowed 'password'");
            }
            i++;
            boolean typed = i + 1 < t.size() && (t.get(i).equals("0") || t.get(i).equals("7"));
            boolean type7 = typed && t.get(i).equals("7");
            if (typed) {
                i++;
            }
            if (i >= t.size()) {
                throw new IllegalArgumentException("replicate casa password: missing value");
            }
            password = t.get(i);
            if (type7) {
                try {
                    password = CiscoType7.decode(password);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("replicate casa password 7 ***: not a type 7 string ("
                            + e.getMessage() + ")");
                }
            }
            i++;
            if (i < t.size()) {
                timeout = (int) number(t, i, "replicate casa password timeout", 1, 65535);
                i++;
            }
        }
        if (i < t.size()) {
            throw new IllegalArgumentException("replicate casa: unexpected '" + String.join(" ", t.subList(i, t.size()))
                    + "'");
        }
        return new ReplicationConfig(listen, remote, port, Duration.ofSeconds(interval), password,
                Duration.ofSeconds(timeout), null, DEFAULT_QUEUE_CAPACITY, DEFAULT_RECONNECT_DELAY);
    }

    /**
     * Parses {@code mclb replicate tls cert FILE key FILE ca FILE} (keywords in any order, each once).
     *
     * @param base relative paths resolve against it; null leaves them as written
     */
    public static TlsFiles parseTls(List<String> t, Path base) {
        String usage = "allowed 'mclb replicate tls cert PEMFILE key PEMFILE ca PEMFILE'";
        if (t.size() != 9 || !t.get(2).equalsIgnoreCase("tls")) {
            throw new IllegalArgumentException(String.join(" ", t) + ": " + usage);
        }
        Path cert = null;
        Path key = null;
        Path ca = null;
        for (int i = 3; i < 9; i += 2) {
            String k = t.get(i).toLowerCase(Locale.ROOT);
            Path p;
            try {
                p = Path.of(t.get(i + 1));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("mclb replicate tls " + k + " " + t.get(i + 1) + ": not a valid path");
            }
            p = base == null || p.isAbsolute() ? p : base.resolve(p).normalize();
            switch (k) {
                case "cert" -> cert = cert == null ? p : duplicate(k, usage);
                case "key" -> key = key == null ? p : duplicate(k, usage);
                case "ca" -> ca = ca == null ? p : duplicate(k, usage);
                default -> throw new IllegalArgumentException("mclb replicate tls: unknown keyword '" + t.get(i) + "', "
                        + usage);
            }
        }
        return new TlsFiles(cert, key, ca);
    }

    private static Path duplicate(String keyword, String usage) {
        throw new IllegalArgumentException("mclb replicate tls: '" + keyword + "' given twice, " + usage);
    }

    private static long number(List<String> t, int i, String label, long min, long max) {
        String allowed = "allowed " + min + ".." + max;
        if (i >= t.size()) {
            throw new IllegalArgumentException(label + ": missing value, " + allowed);
        }
        String s = t.get(i);
        if (!s.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException(label + " " + s + ": not a number, " + allowed);
        }
        long v = Long.parseLong(s);
        if (v < min || v > max) {
            throw new IllegalArgumentException(label + " " + s + ": out of range, " + allowed);
        }
        return v;
    }

    /** An IP literal, never a host name: parsing must not touch DNS. */
    private static InetAddress address(List<String> t, int i, String label) {
        if (i >= t.size()) {
            throw new IllegalArgumentException(label + ": missing IP address (IPv4 or IPv6)");
        }
        String s = t.get(i);
        boolean v4 = s.matches("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
        boolean v6 = s.indexOf(':') >= 0 && s.matches("[0-9A-Fa-f:.]+");
        if (v4 || v6) {
            try {
                return InetAddress.getByName(s);
            } catch (UnknownHostException | IllegalArgumentException e) {
                // falls through to the error below
            }
        }
        throw new IllegalArgumentException(label + " " + s + ": not an IP address (IPv4 or IPv6)");
    }

    @Override
    public String toString() {
        // the password never reaches logs
        return "ReplicationConfig[listen=" + listenAddress.getHostAddress() + ", remote=" + remoteAddress.getHostAddress()
                + ", port=" + port + ", interval=" + interval + ", password=" + (password == null ? "none" : "***")
                + ", tls=" + (tls != null) + "]";
    }
}
