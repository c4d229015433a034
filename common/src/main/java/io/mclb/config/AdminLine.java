package io.mclb.config;

import java.nio.file.Path;

/**
 * The {@code mclb admin ...} lines past the listener's own address ({@code mclb admin ADDRESS PORT}
 * stays in {@link GlobalConfig}): who may change things over TCP, TLS, and the listener's limits.
 * Each is a top-level record ({@code config.records(AdminLine.Token.class)}); the token is re-read
 * on every reload, the others take effect at start.
 */
public sealed interface AdminLine {
    /** The owner of these lines in {@link MclbConfig#globalExtensions()}. */
    String OWNER = "mclb-admin";

    int DEFAULT_MAX_CONNECTIONS = 4096;
    int DEFAULT_TIMEOUT_SECONDS = 10;

    /**
     * {@code mclb admin token FILE}: state-changing calls over TCP need {@code Authorization: Bearer}
     * with this secret (the file's content, surrounding white space removed).
     */
    record Token(Path file, byte[] secret) implements AdminLine {
        @Override
        public String toString() {
            return "Token[" + file + "]";
        }
    }

    /** {@code mclb admin tls CERT.pem KEY.pem}: the TCP listener speaks HTTPS only. */
    record Tls(Path cert, Path key) implements AdminLine {
    }

    /** {@code mclb admin max-connections N}: past N, the connection idle the longest is closed. */
    record MaxConnections(int connections) implements AdminLine {
    }

    /**
     * {@code mclb admin timeout SECONDS}: a request's headers and body must arrive within this time
     * (else 408), and an idle keep-alive connection is closed after it.
     */
    record Timeout(int seconds) implements AdminLine {
    }
}
