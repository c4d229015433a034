package io.mclb.probe;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.route.NoopRouteInjector;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Metrics;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.mclb.vserver.VserverState;
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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the health layer does to reals and virtual servers, with a probe type whose verdict per
 * real the test sets: a real is TESTING (no traffic) until its first pass, at start and when a
 * reload adds it; a virtual server with no real up is ALL_REALS_DOWN and drops as
 * {@code no_real_available}; track-port followers follow their master; route health injection
 * advertises while serviceable and withdraws when the last real fails (through the no-op twin).
 */
class HealthStatesTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    /** Real label to whether its checks pass (default: pass). */
    private static final Map<String, Boolean> PASSES = new ConcurrentHashMap<>();

    @TempDir
    Path dir;
    private MclbRuntime rt;
    private final NoopRouteInjector routes = new NoopRouteInjector();
    private final List<AutoCloseable> closeMe = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (rt != null) {
            rt.close();
        }
        for (AutoCloseable c : closeMe) {
            c.close();
        }
        PASSES.clear();
    }

    /** {@code ip slb probe NAME switch}: passes while {@link #PASSES} says so for the real. */
    private static final ProbeFactory SWITCH =
            new SwitchProbe((probe, real) -> PASSES.getOrDefault(real.label(), true));

    private final Modules modules = Modules.withProbeTypes(List.of(SWITCH));

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("t.cfg", "mclb data-dir " + dir.resolve("data") + "\nmclb event-loops 1\n"
                + "ip slb probe P switch\n interval 1\n faildetect 1\n timeout 1\n" + text, dir, modules.grammar());
    }

    private void start(String text) throws Exception {
        rt = MclbRuntime.start(parse(text), modules, ServingGate.ALWAYS, new ManualClock(), routes);
    }

    private FakeUdpReal real(String address) throws Exception {
        FakeUdpReal r = new FakeUdpReal(address);
        closeMe.add(r);
        return r;
    }

    private DatagramSocket client() throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        closeMe.add(s);
        return s;
    }

    private static String realLines(FakeUdpReal... reals) {
        StringBuilder sb = new StringBuilder();
        for (FakeUdpReal r : reals) {
            sb.append(" real ").append(r.address()).append(' ').append(r.port()).append("\n  inservice\n");
        }
        return sb.toString();
    }

    private RealServer realOf(String farm, FakeUdpReal r) {
        for (RealServer x : rt.farms().get(farm).reals()) {
            if (x.port() == r.port()) {
                return x;
            }
        }
        throw new AssertionError("no real " + r.port());
    }

    @Test
    void aRealIsTestingUntilItsFirstPassAndTakesNoTrafficMeanwhile() throws Exception {
        FakeUdpReal a = real("127.0.0.11");
        PASSES.put("127.0.0.11:" + a.port(), false);
        int port = Ports.freeUdp("127.0.0.100");
        String vs = "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n";
        // faildetect 255: the failing checks keep it TESTING for the whole test (not PROBE_FAILED)
        String slow = "ip slb probe T switch\n interval 1\n faildetect 255\n timeout 1\n";
        start(slow + "ip slb serverfarm F\n probe T\n" + realLines(a) + vs);
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        assertThat(realOf("F", a).state()).isEqualTo(RealState.TESTING);
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.ALL_REALS_DOWN);
        assertThat(FakeUdpReal.exchange(client(), new byte[] {1}, vip, 300)).isNull();
        await().atMost(WAIT).until(() -> Metrics.count(rt.registry(), "mclb.drops", "reason", "no_real_available") >= 1);
        assertThat(a.received()).as("no subscriber goes to an unverified real").isZero();
        assertThat(ProbeScheduler.byProbeAndReal(rt.probeStatus()).get("T/127.0.0.11:" + a.port()).state())
                .isEqualTo("TESTING");

        PASSES.put("127.0.0.11:" + a.port(), true);
        await().atMost(WAIT).until(() -> realOf("F", a).state() == RealState.OPERATIONAL);
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.OPERATIONAL);
        assertThat(FakeUdpReal.exchange(client(), new byte[] {2}, vip, 2000)).isNotNull();

        FakeUdpReal b = real("127.0.0.12");
        PASSES.put("127.0.0.12:" + b.port(), false);
        rt.reload(parse(slow + "ip slb serverfarm F\n probe T\n" + realLines(a, b) + vs));
        assertThat(realOf("F", b).state()).as("added by a reload: unverified").isEqualTo(RealState.TESTING);
        assertThat(realOf("F", a).state()).as("kept: still verified").isEqualTo(RealState.OPERATIONAL);
        PASSES.put("127.0.0.12:" + b.port(), true);
        await().atMost(WAIT).until(() -> realOf("F", b).state() == RealState.OPERATIONAL);
    }

    @Test
    void aRealWhoseFirstChecksFailFaildetectTimesIsProbeFailedNotTesting() throws Exception {
        FakeUdpReal a = real("127.0.0.13");
        PASSES.put("127.0.0.13:" + a.port(), false);
        int port = Ports.freeUdp("127.0.0.100");
        start("ip slb serverfarm F\n probe P\n" + realLines(a) + "ip slb vserver V\n virtual 127.0.0.100 udp " + port
                + "\n serverfarm F\n inservice\n");
        await().atMost(WAIT).until(() -> realOf("F", a).state() == RealState.PROBE_FAILED);
        assertThat(ProbeScheduler.byProbeAndReal(rt.probeStatus()).get("P/" + realOf("F", a).label()).state())
                .isEqualTo("FAILED");
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.ALL_REALS_DOWN);

        PASSES.put("127.0.0.13:" + a.port(), true);
        await().atMost(WAIT).until(() -> realOf("F", a).state() == RealState.OPERATIONAL);
    }

    @Test
    void trackPortFollowersAreDownWhileTheirMasterIs() throws Exception {
        FakeUdpReal master = real("127.0.0.21");
        FakeUdpReal follower = real("127.0.0.21");
        int port = Ports.freeUdp("127.0.0.100");
        start("ip slb serverfarm GTP\n probe P\n" + realLines(master)
                + "ip slb serverfarm AAA\n real 127.0.0.21 " + follower.port() + "\n  track-port " + master.port() + " "
                + follower.port() + "\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm AAA\n inservice\n");
        RealServer m = realOf("GTP", master);
        RealServer f = realOf("AAA", follower);
        await().atMost(WAIT).until(() -> m.state() == RealState.OPERATIONAL);
        // the follower follows on the master's transition thread, just after the master's state is visible
        await().atMost(WAIT).untilAsserted(() -> assertThat(f.state()).isEqualTo(RealState.OPERATIONAL));

        PASSES.put(m.label(), false);
        await().atMost(WAIT).until(() -> f.state() == RealState.MASTER_DOWN);
        assertThat(m.state()).isEqualTo(RealState.PROBE_FAILED);
        assertThat(rt.vservers().get("V").state()).isEqualTo(VserverState.ALL_REALS_DOWN);
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        assertThat(FakeUdpReal.exchange(client(), new byte[] {1}, vip, 300)).as("no new work").isNull();
        assertThat(follower.received()).isZero();

        PASSES.put(m.label(), true);
        await().atMost(WAIT).until(() -> f.state() == RealState.OPERATIONAL);
        assertThat(FakeUdpReal.exchange(client(), new byte[] {2}, vip, 2000)).isNotNull();
    }

    @Test
    void routeHealthAdvertisesWhileServiceableAndWithdrawsTheLastFailure() throws Exception {
        FakeUdpReal a = real("127.0.0.31");
        int p = Ports.freeUdp("127.0.0.101");
        start("mclb advertise table 100\nip slb serverfarm F\n probe P\n" + realLines(a)
                + "ip slb vserver ACTIVE\n virtual 127.0.0.101 udp " + p + "\n serverfarm F\n advertise active\n inservice\n"
                + "ip slb vserver PLAIN\n virtual 127.0.0.102 udp " + p + "\n serverfarm F\n inservice\n"
                + "ip slb vserver QUIET\n virtual 127.0.0.103 udp " + p + "\n serverfarm F\n no advertise\n inservice\n");
        InetAddress active = InetAddress.getByName("127.0.0.101");
        InetAddress plain = InetAddress.getByName("127.0.0.102");
        InetAddress quiet = InetAddress.getByName("127.0.0.103");
        await().atMost(WAIT).until(() -> rt.routeHealth().advertised(active));
        assertThat(rt.routeHealth().advertised(plain)).isTrue();
        assertThat(rt.routeHealth().advertised(quiet)).isFalse();
        assertThat(routes.calls()).startsWith("flush table 100").contains("install 127.0.0.101 table 100")
                .doesNotContain("install 127.0.0.103 table 100");
        assertThat(rt.registry().get("mclb.vserver.serviceable").tag("vserver", "ACTIVE").gauge().value()).isEqualTo(1);

        PASSES.put(realOf("F", a).label(), false);
        await().atMost(WAIT).until(() -> !rt.routeHealth().advertised(active));
        assertThat(routes.calls()).contains("withdraw 127.0.0.101 table 100");
        assertThat(rt.routeHealth().advertised(plain)).as("plain advertise: while in service").isTrue();
        assertThat(rt.vservers().get("ACTIVE").state()).isEqualTo(VserverState.ALL_REALS_DOWN);
        assertThat(rt.registry().get("mclb.route.advertised").tag("address", "127.0.0.101").gauge().value()).isZero();

        PASSES.put(realOf("F", a).label(), true);
        await().atMost(WAIT).until(() -> rt.routeHealth().advertised(active));
        rt.close();
        rt = null;
        List<String> calls = routes.calls();
        assertThat(calls.subList(calls.size() - 2, calls.size())).as("a clean stop withdraws everything")
                .containsExactlyInAnyOrder("withdraw 127.0.0.101 table 100", "withdraw 127.0.0.102 table 100");
    }
}
