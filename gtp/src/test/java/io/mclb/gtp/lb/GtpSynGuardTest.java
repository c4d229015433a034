package io.mclb.gtp.lb;

import io.mclb.admin.AdminViews;
import io.mclb.admin.ShowArgs;
import io.mclb.admin.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code synguard N [INTERVAL]} on a GTP virtual server, end to end over loopback: one SGSN's
 * storm of creates is capped at N per interval while another SGSN's creates all get through; a
 * retransmission of an admitted create is not a new session; the next interval admits again.
 */
class GtpSynGuardTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private GtpHarness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void oneSgsnsCreateStormIsCappedWhileAnotherSgsnsCreatesAllGetThrough() throws Exception {
        h = new GtpHarness();
        int port = GtpHarness.freePort("127.0.0.1");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.1", port);
        h.start(h.parse(dir, GtpHarness.fuzzGlobalsAndReals(dir, h.threeGgsns(), "")
                + "ip slb vserver GGSN-GN\n"
                + " virtual 127.0.0.1 udp " + port + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " synguard 5 1000\n"
                + " inservice\n"));
        assertThat(h.drops("GGSN-GN", "client_rate_limited")).as("exported at 0 from the start").isZero();
        DatagramSocket storm = h.client("127.0.0.1");
        DatagramSocket calm = h.client("127.0.0.5");
        byte[] firstOfStorm = GtpHarness.v1Create("262010000001000", 1);
        GtpHarness.send(storm, firstOfStorm, vip);
        for (int i = 1; i < 20; i++) {
            GtpHarness.send(storm, GtpHarness.v1Create("2620100000010" + String.format("%02d", i), 1 + i), vip);
        }
        for (int i = 0; i < 5; i++) {
            GtpHarness.send(calm, GtpHarness.v1Create("2620100000020" + String.format("%02d", i), 100 + i), vip);
            assertThat(GtpHarness.v1Cause(GtpHarness.receive(calm))).as("the calm SGSN's create %d", i).isEqualTo(128);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(GtpHarness.v1Cause(GtpHarness.receive(storm))).isEqualTo(128);
        }
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "client_rate_limited") == 15);
        assertThat(Arrays.stream(h.creates()).sum()).as("5 of the storm and all 5 of the calm SGSN").isEqualTo(10);

        GtpHarness.send(storm, firstOfStorm, vip); // its answer was "lost": a retransmission, not a new session
        assertThat(GtpHarness.v1Seq(GtpHarness.receive(storm))).isEqualTo(1);
        assertThat(h.drops("GGSN-GN", "client_rate_limited")).isEqualTo(15);

        h.clock.advanceMillis(1000);
        GtpHarness.send(storm, GtpHarness.v1Create("262010000003000", 300), vip);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(storm))).as("a new interval").isEqualTo(128);
        assertThat(h.drops("GGSN-GN", "client_rate_limited")).isEqualTo(15);

        Table detail = new AdminViews(h.runtime).vservers(ShowArgs.of("vservers", java.util.Map.of("args", "detail")));
        assertThat(detail.rows()).singleElement().satisfies(r -> {
            assertThat(r.get("synguard")).isEqualTo("5/1000ms");
            assertThat(r.get("rate_limited")).isEqualTo(15L);
        });
    }
}
