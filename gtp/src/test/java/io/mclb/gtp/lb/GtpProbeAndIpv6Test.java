package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.sticky.StickyKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The gtp-echo prober against fake GGSNs (real 1 s timers), and an IPv6 virtual server end to end. */
class GtpProbeAndIpv6Test {
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
    void silentGgsnIsProbeFailedAndBackAndARecoveryChangePurges() throws Exception {
        h = new GtpHarness();
        FakeGgsn a = h.ggsn("127.0.0.2");
        FakeGgsn b = h.ggsn("127.0.0.3");
        int port = GtpHarness.freePort("127.0.0.1");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.1", port);
        String cfg = "mclb admin 127.0.0.1 " + GtpHarness.freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb probe ECHO gtp-echo\n"
                + " interval 1\n"
                + " faildetect 2\n"
                + " timeout 1\n"
                + "ip slb serverfarm F\n"
                + " predictor leastconns\n"
                + " failaction gtp purge\n"
                + " probe ECHO\n"
                + " real 127.0.0.2 " + a.port() + "\n"
                + "  inservice\n"
                + " real 127.0.0.3 " + b.port() + "\n"
                + "  inservice\n"
                + "ip slb vserver V\n"
                + " virtual 127.0.0.1 udp " + port + " service gtp-inspect\n"
                + " serverfarm F\n"
                + " sticky gtp imsi\n"
                + " inservice\n";
        var parsed = h.parse(dir, cfg);
        h.start(parsed);
        RealServer ra = h.real("F", a);
        await().atMost(WAIT).until(() -> a.echoes.get() >= 2 && b.echoes.get() >= 2);
        assertThat(io.mclb.testing.Metrics.sample(h.runtime.registry().scrape(),
                "mclb_gtp_ggsn_restarts_total{farm=\"F\",real=\"" + ra.label() + "\"}"))
                .as("a probed GGSN's restart counter exists before its first restart").isZero();

        a.silent = true;
        await().atMost(WAIT).until(() -> ra.state() == RealState.PROBE_FAILED);
        a.silent = false;
        await().atMost(WAIT).until(() -> ra.state() == RealState.OPERATIONAL);

        // sessions and sticky entries on b, then b restarts (new Recovery)
        DatagramSocket sgsn = h.client();
        a.silent = true;
        await().atMost(WAIT).until(() -> ra.state() == RealState.PROBE_FAILED);
        for (int i = 0; i < 3; i++) {
            GtpHarness.send(sgsn, GtpHarness.v1Create("26201000000080" + i, i + 1), vip);
            assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        }
        RealServer rb = h.real("F", b);
        assertThat(rb.activeConnections()).isEqualTo(3);
        assertThat(h.runtime.stickyTable().size(GtpModule.IMSI)).isEqualTo(3);
        b.recovery = 2;
        await().atMost(WAIT).until(() -> h.runtime.stickyTable().size(GtpModule.IMSI) == 0);
        await().atMost(WAIT).until(() -> rb.activeConnections() == 0);
        assertThat(h.factory.module().sessions().size()).isZero();
        assertThat(h.counter(GtpMetrics.GGSN_RESTARTS, "farm", "F")).isEqualTo(1);
    }

    @Test
    void ipv6VirtualServerAndRealsEndToEnd() throws Exception {
        h = new GtpHarness();
        FakeGgsn a = h.ggsn("::1");
        int port = GtpHarness.freePort("::1");
        InetSocketAddress vip = new InetSocketAddress("::1", port);
        String cfg = "mclb admin 127.0.0.1 " + GtpHarness.freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm F6\n"
                + " predictor leastconns\n"
                + " real ::1 " + a.port() + "\n"
                + "  inservice\n"
                + "ip slb vserver V6\n"
                + " virtual ::1 udp " + port + " service gtp-inspect\n"
                + " serverfarm F6\n"
                + " sticky gtp imsi\n"
                + " inservice\n";
        h.start(h.parse(dir, cfg));
        DatagramSocket sgsn = h.client("::1");
        GtpHarness.send(sgsn, GtpHarness.v2Create("262010000000900", 0x10), vip);
        byte[] r = GtpHarness.receive(sgsn);
        assertThat(r[1] & 0xFF).isEqualTo(33);
        GtpSession s = h.factory.module().sessions().get(io.mclb.gtp.Tbcd.encodeRaw("262010000000900"), 5);
        assertThat(s).isNotNull();
        assertThat(s.ggsnAddress()).as("IPv6 F-TEID address learned").hasSize(16);
        GtpHarness.send(sgsn, GtpHarness.v2Delete(s.teid(), 0x11), vip);
        assertThat(GtpHarness.receive(sgsn)[1] & 0xFF).isEqualTo(37);
        assertThat(h.factory.module().sessions().size()).isZero();
    }
}
