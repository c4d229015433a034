package io.mclb.cli;

import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SIGHUP that arrives while mclb starts is kept and applied once the server runs (the handler is
 * installed first, so the JVM's own SIGHUP handler never shuts a starting mclb down); one that
 * arrives later reloads at once.
 */
class HangupReloadTest {
    @TempDir
    Path dir;

    private Path config(int admin, int port, int weight) throws Exception {
        Path cfg = dir.resolve("mclb.cfg");
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + admin + "\nmclb data-dir " + dir.resolve("data")
                + "\nmclb sticky entries 10000\n"
                + "ip slb serverfarm F\n real 127.0.0.11 9\n  weight " + weight + "\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n");
        return cfg;
    }

    private static int weight(MclbServer s) {
        return s.runtime().config().farms().get("F").reals().get(0).weight();
    }

    @Test
    void aHangupDuringStartIsAppliedOnceTheServerRunsAndALaterOneAtOnce() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
        Path cfg = config(admin, port, 1);
        HangupReload hangup = new HangupReload();
        // the signal comes before the server runs; the file changes after it was read
        hangup.hangup();
        assertThat(hangup.pending()).isTrue();
        try (MclbServer s = MclbServer.start(cfg, Modules.load())) {
            assertThat(weight(s)).isEqualTo(1);
            config(admin, port, 7);
            hangup.started(s);
            assertThat(hangup.pending()).isFalse();
            assertThat(weight(s)).isEqualTo(7);

            config(admin, port, 3);
            hangup.hangup();
            assertThat(hangup.pending()).isFalse();
            assertThat(weight(s)).isEqualTo(3);
        }
    }

    @Test
    void withNoHangupStartingReloadsNothing() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
        Path cfg = config(admin, port, 1);
        HangupReload hangup = new HangupReload();
        try (MclbServer s = MclbServer.start(cfg, Modules.load())) {
            config(admin, port, 5);
            hangup.started(s);
            assertThat(weight(s)).isEqualTo(1);
        }
    }
}
