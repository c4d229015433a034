package io.mclb.server;

import io.mclb.config.GlobalConfig;
import io.mclb.config.MclbConfig;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Command-line settings that win over the file's {@code mclb admin} and {@code mclb data-dir}
 * ({@code mclb run --admin ADDR:PORT --data-dir DIR}), so two instances of one example can run
 * side by side. Applied to every configuration the server takes: at start, on reload and to one
 * replicated from the HA peer (whose file names the peer's own listener and directory).
 *
 * @param admin   null keeps the file's
 * @param dataDir null keeps the file's
 */
public record StartupOverrides(InetSocketAddress admin, Path dataDir) {
    public static final StartupOverrides NONE = new StartupOverrides(null, null);

    public MclbConfig apply(MclbConfig c) {
        if (admin == null && dataDir == null) {
            return c;
        }
        GlobalConfig g = c.global();
        GlobalConfig next = new GlobalConfig(admin != null ? admin : g.admin(),
                dataDir != null ? dataDir.toAbsolutePath() : g.dataDir(), g.forwarding(), g.stickyEntries(),
                g.eventLoops(), g.transport());
        return new MclbConfig(next, c.farms(), c.vservers(), c.globalExtensions(), c.warnings(), c.sourceFile());
    }
}
