package io.mclb.vserver;

import io.mclb.config.ConfigParser;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Metrics;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In-band failures confirmed before a real is failed (issue 10 item 5), end to end on loopback:
 * one client whose datagrams a real never answers (a broken peer) used to fail that real for
 * everyone, although it answers its probe and every other client. With a probe on the farm, the
 * in-band failure makes the real SUSPECT, its probe runs at once and clears it; the broken
 * client's flow still moves to the other real. A real that does not answer its probe either is
 * confirmed: PROBE_FAILED. (Without a probe the real goes FAILED as on IOS: {@code FlowRelayTest}.)
 */
class InbandSuspectTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock();
    private final List<AutoCloseable> closeMe = new ArrayList<>();
    private MclbRuntime rt;
    private FakeUdpReal[] reals;
    private InetSocketAddress vip;

    @AfterEach
    void tearDown() throws Exception {
        if (rt != null) {
            rt.close();
        }
        for (AutoCloseable c : closeMe) {
            c.close();
        }
    }

    private void start() throws Exception {
        reals = new FakeUdpReal[] {new FakeUdpReal("127.0.0.11"), new FakeUdpReal("127.0.0.12")};
        closeMe.add(reals[0]);
        closeMe.add(reals[1]);
        int port = Ports.freeUdp("127.0.0.100");
        StringBuilder cfg = new StringBuilder("mclb data-dir " + dir.resolve("data") + "\nmclb event-loops 1\n"
                + "ip slb probe ECHO custom udp\n request data 0 70726f6265\n response 1 data 0 70726f6265\n"
                + " interval 1\n timeout 1\n faildetect 1\n"
                + "ip slb serverfarm F\n probe ECHO\n");
        for (FakeUdpReal r : reals) {
            cfg.append(" real ").append(r.address()).append(' ').append(r.port())
                    .append("\n  reassign 1\n  faildetect numconns 1\n  inservice\n");
        }
        cfg.append("ip slb vserver V\n virtual 127.0.0.100 udp ").append(port)
                .append("\n serverfarm F\n idle 600\n inservice\n");
        Modules m = Modules.of();
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", cfg.toString(), dir, m.grammar()), m, ServingGate.ALWAYS, clock);
        vip = new InetSocketAddress("127.0.0.100", port);
        await().atMost(WAIT).until(() -> real(0).state() == RealState.OPERATIONAL
                && real(1).state() == RealState.OPERATIONAL);
    }

    private RealServer real(int i) {
        return rt.farms().get("F").reals()[i];
    }

    private DatagramSocket client(String address) throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        closeMe.add(s);
        return s;
    }

    /** A flow from {@code address} that its real stops answering; returns the index of that real. */
    private int brokenClientOnItsReal(DatagramSocket broken) throws Exception {
        long before = reals[0].received();
        assertThat(FakeUdpReal.exchange(broken, new byte[] {1}, vip, 2000)).isNotNull();
        int i = reals[0].received() > before ? 0 : 1;
        reals[i].ignore(reals[i].lastSender()); // mclb's socket of this flow: only this client goes unanswered
        assertThat(FakeUdpReal.exchange(broken, new byte[] {2}, vip, 300)).as("unanswered").isNull();
        clock.advanceSeconds(3);
        return i;
    }

    private double transitionsTo(RealServer r, RealState s) {
        return Metrics.count(rt.registry(), "mclb.real.transitions", "real", r.label(), "to", s.name());
    }

    @Test
    void oneBrokenClientMakesItsRealSuspectAndThePassingProbeClearsIt() throws Exception {
        start();
        DatagramSocket broken = client("127.0.0.61");
        int i = brokenClientOnItsReal(broken);
        RealServer suspect = real(i);
        assertThat(FakeUdpReal.exchange(broken, new byte[] {3}, vip, 2000))
                .as("the broken client's flow moved to the other real").isNotNull();
        await().atMost(WAIT).until(() -> Metrics.count(rt.registry(), "mclb.inband.suspect", "real", suspect.label(),
                "outcome", "cleared") == 1);
        assertThat(suspect.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(transitionsTo(suspect, RealState.SUSPECT)).isEqualTo(1);
        assertThat(transitionsTo(suspect, RealState.FAILED)).as("never failed for everyone").isZero();
        assertThat(Metrics.count(rt.registry(), "mclb.reassignments", "reason", "unanswered")).isEqualTo(1);
        // every other client still reaches it (mclb reuses the broken flow's freed upstream socket: stop ignoring it)
        reals[i].ignore(null);
        long seen = reals[i].received();
        for (int n = 0; n < 4; n++) {
            assertThat(FakeUdpReal.exchange(client("127.0.0.62"), new byte[] {4}, vip, 2000)).isNotNull();
        }
        assertThat(reals[i].received()).isGreaterThan(seen);
    }

    @Test
    void aRealThatFailsItsProbeToIsConfirmedAndProbeFailed() throws Exception {
        start();
        DatagramSocket client = client("127.0.0.61");
        long before = reals[0].received();
        assertThat(FakeUdpReal.exchange(client, new byte[] {1}, vip, 2000)).isNotNull();
        int i = reals[0].received() > before ? 0 : 1;
        reals[i].setSilent(true);
        assertThat(FakeUdpReal.exchange(client, new byte[] {2}, vip, 300)).isNull();
        clock.advanceSeconds(3);
        assertThat(FakeUdpReal.exchange(client, new byte[] {3}, vip, 2000)).as("moved").isNotNull();
        RealServer dead = real(i);
        await().atMost(WAIT).until(() -> Metrics.count(rt.registry(), "mclb.inband.suspect", "real", dead.label(),
                "outcome", "confirmed") == 1);
        assertThat(dead.state()).isEqualTo(RealState.PROBE_FAILED);
        assertThat(dead.failingProbes()).containsExactly("ECHO");
        assertThat(transitionsTo(dead, RealState.FAILED)).isZero();
    }
}
