package io.mclb.config;

import io.mclb.net.TransportKind;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Global {@code mclb ...} settings.
 *
 * @param admin        admin HTTP listener ({@code mclb admin ADDRESS PORT}), default 127.0.0.1:8080
 * @param dataDir      where sticky tables and other persisted state live ({@code mclb data-dir PATH}),
 *                     relative paths resolved against the configuration file's directory
 * @param forwarding   {@code mclb forwarding proxy}
 * @param stickyEntries capacity of the sticky table file ({@code mclb sticky entries N}), fixed when
 *                     the file is first created
 * @param eventLoops   data-path event loops ({@code mclb event-loops N}); 0 = one per core
 * @param transport    I/O transport ({@code mclb transport auto|epoll|io_uring|nio}), default auto
 */
public record GlobalConfig(InetSocketAddress admin, Path dataDir, ForwardingMode forwarding,
                           long stickyEntries, int eventLoops, TransportKind transport) {

    public GlobalConfig(InetSocketAddress admin, Path dataDir, ForwardingMode forwarding, long stickyEntries,
                        int eventLoops) {
        this(admin, dataDir, forwarding, stickyEntries, eventLoops, TransportKind.AUTO);
    }

    public static final InetSocketAddress DEFAULT_ADMIN = new InetSocketAddress("127.0.0.1", 8080);
    public static final long DEFAULT_STICKY_ENTRIES = 1_000_000L;

    public static GlobalConfig defaults() {
        return new GlobalConfig(DEFAULT_ADMIN, Path.of("data"), ForwardingMode.PROXY, DEFAULT_STICKY_ENTRIES, 0);
    }
}
