package io.mclb.ha.replication;

import io.mclb.config.BadLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Stateful backup settings: the vserver line
 * {@code replicate casa LISTEN-IP REMOTE-IP PORT [INTERVAL] [password [0|7] PW [TIMEOUT]]} plus
 * the optional global {@code mclb replicate tls cert PEM key PEM ca PEM}. Without TLS and with the
 * default queue and reconnect delay, it is also the record of the {@code replicate casa} line
 * ({@link ReplicationConfigSyntax} reads it once); {@link #from} adds the TLS record.
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

    /**
     * PEM files for mutual TLS: this node's certificate and key, and the CA both nodes' certificates
     * chain to. The record of {@code mclb replicate tls ...} holds them as written.
     */
    public record TlsFiles(Path cert, Path key, Path ca) {
        /** Relative paths resolved against {@code base} (the configuration file's directory); null: as written. */
        public TlsFiles resolvedAgainst(Path base) {
            return base == null ? this : new TlsFiles(resolve(base, cert), resolve(base, key), resolve(base, ca));
        }

        private static Path resolve(Path base, Path p) {
            return p.isAbsolute() ? p : base.resolve(p).normalize();
        }
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
     * The replication settings of a validated configuration: the first {@code replicate casa} record
     * (validation made every vserver's equal, since all share one sticky table) with the TLS record.
     * Relative PEM paths resolve against the configuration file's directory.
     */
    public static Optional<ReplicationConfig> from(MclbConfig config) {
        Path base = config.sourceFile() == null ? null : config.sourceFile().toAbsolutePath().getParent();
        for (VirtualServerConfig v : config.vservers().values()) {
            ReplicationConfig c = v.record(ReplicationConfig.class);
            if (c != null) {
                for (TlsFiles f : config.records(TlsFiles.class)) {
                    c = c.withTls(f.resolvedAgainst(base));
                }
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * Reads a {@code replicate casa ...} line given as tokens, outside a configuration file (tools
     * and tests; a file's lines are read once by {@link ReplicationConfigSyntax}).
     *
     * @throws IllegalArgumentException whose message names the offending value and what is allowed
     */
    public static ReplicationConfig parseReplicate(List<String> t) {
        try {
            return ReplicationConfigSyntax.replicate(t);
        } catch (BadLine e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    @Override
    public String toString() {
        // the password never reaches logs
        return "ReplicationConfig[listen=" + listenAddress.getHostAddress() + ", remote=" + remoteAddress.getHostAddress()
                + ", port=" + port + ", interval=" + interval + ", password=" + (password == null ? "none" : "***")
                + ", tls=" + (tls != null) + "]";
    }
}
