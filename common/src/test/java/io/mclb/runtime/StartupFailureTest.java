package io.mclb.runtime;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A virtual server that cannot listen says which, on what, and why, in words an operator acts on:
 * never the kernel's bare "Cannot assign requested address" or "Address already in use".
 */
class StartupFailureTest {
    @TempDir
    Path dir;
    private MclbRuntime first;

    @AfterEach
    void close() {
        if (first != null) {
            first.close();
        }
    }

    private MclbConfig config(String data, String vip, int port) throws Exception {
        return ConfigParser.parse("t.cfg", "mclb data-dir " + dir.resolve(data) + "\nmclb event-loops 1\n"
                + "ip slb serverfarm F\n real 127.0.0.11 9\n  inservice\n"
                + "ip slb vserver V\n virtual " + vip + " udp " + port + "\n serverfarm F\n inservice\n", dir, List.of());
    }

    private static MclbRuntime start(MclbConfig c) throws Exception {
        return MclbRuntime.start(c, Modules.of(), ServingGate.ALWAYS, new ManualClock());
    }

    @Test
    void aVipThatIsNotAnAddressOfThisHostIsRefusedByName() throws Exception {
        // TEST-NET-2: never configured on a test host (unless non-local binds are allowed, then it binds)
        org.junit.jupiter.api.Assumptions.assumeFalse(
                java.nio.file.Files.readString(Path.of("/proc/sys/net/ipv4/ip_nonlocal_bind")).trim().equals("1"));
        MclbConfig c = config("a", "198.51.100.7", 5000);
        assertThatThrownBy(() -> start(c)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("vserver V: VIP 198.51.100.7: not an address of this host"
                        + " (use ip nonlocal bind or add it");
    }

    @Test
    void aPortHeldByAnotherProcessOrASecondMclbIsRefusedEvenThoughListenersShareWithReuseport() throws Exception {
        int port = Ports.freeUdp("127.0.0.1");
        try (DatagramSocket other = new DatagramSocket(port, InetAddress.getByName("127.0.0.1"))) {
            MclbConfig c = config("a", "127.0.0.1", port);
            assertThatThrownBy(() -> start(c)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("vserver V: VIP 127.0.0.1 udp " + port + ": port " + port
                            + " is in use by another process");
        }
        first = start(config("a", "127.0.0.1", port));
        // a second instance (its own data directory) would bind alongside with SO_REUSEPORT and take half the traffic
        MclbConfig second = config("b", "127.0.0.1", port);
        assertThatThrownBy(() -> start(second)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is in use by another process (another mclb?");
    }

    @Test
    void aReloadThatRenamesAVirtualServerKeepsItsPort() throws Exception {
        int port = Ports.freeUdp("127.0.0.1");
        first = start(config("a", "127.0.0.1", port));
        String renamed = "mclb data-dir " + dir.resolve("a") + "\nmclb event-loops 1\n"
                + "ip slb serverfarm F\n real 127.0.0.11 9\n  inservice\n"
                + "ip slb vserver W\n virtual 127.0.0.1 udp " + port + "\n serverfarm F\n inservice\n";
        first.reload(ConfigParser.parse("t.cfg", renamed, dir, List.of()));
        assertThat(first.vservers()).containsOnlyKeys("W");
    }
}
