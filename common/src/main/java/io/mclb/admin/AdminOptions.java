package io.mclb.admin;

import io.mclb.config.AdminLine;
import io.mclb.config.MclbConfig;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * How the admin plane listens, fixed at start: the TCP address ({@code mclb admin ADDRESS PORT}),
 * the local socket (null: none), TLS on TCP (null: plain HTTP) and the limits.
 */
public record AdminOptions(InetSocketAddress tcp, Path localSocket, AdminLine.Tls tls, int maxConnections,
                           int timeoutSeconds) {
    /** The local socket's name in the data directory. */
    public static final String SOCKET_FILE = "admin.sock";

    /** TCP only, no TLS, the default limits. */
    public static AdminOptions tcpOnly(InetSocketAddress tcp) {
        return new AdminOptions(tcp, null, null, AdminLine.DEFAULT_MAX_CONNECTIONS, AdminLine.DEFAULT_TIMEOUT_SECONDS);
    }

    /** Everything from the configuration: the local socket is {@code DATA_DIR/admin.sock}. */
    public static AdminOptions of(MclbConfig c) {
        int max = c.records(AdminLine.MaxConnections.class).stream().findFirst()
                .map(AdminLine.MaxConnections::connections).orElse(AdminLine.DEFAULT_MAX_CONNECTIONS);
        int timeout = c.records(AdminLine.Timeout.class).stream().findFirst().map(AdminLine.Timeout::seconds)
                .orElse(AdminLine.DEFAULT_TIMEOUT_SECONDS);
        AdminLine.Tls tls = c.records(AdminLine.Tls.class).stream().findFirst().orElse(null);
        return new AdminOptions(c.global().admin(), c.global().dataDir().resolve(SOCKET_FILE), tls, max, timeout);
    }
}
