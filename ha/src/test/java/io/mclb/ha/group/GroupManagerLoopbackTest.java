package io.mclb.ha.group;

import io.mclb.ha.vip.NoopVirtualAddressControl;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two group managers over real UDP on loopback (127.0.0.2 and 127.0.0.3, virtual address
 * 127.0.0.100, no-op address control) with millisecond timers.
 */
class GroupManagerLoopbackTest {
    private static final int HELLO_MS = 50;
    private static final int HOLD_MS = 200;
    private final int port = haPort();

    private static int haPort() {
        try {
            return io.mclb.testing.Ports.freeUdp("127.0.0.2");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
    private final List<GroupManager> managers = new ArrayList<>();
    private final SimpleMeterRegistry regA = new SimpleMeterRegistry();
    private final SimpleMeterRegistry regB = new SimpleMeterRegistry();
    private final NoopVirtualAddressControl vipA = new NoopVirtualAddressControl();
    private final NoopVirtualAddressControl vipB = new NoopVirtualAddressControl();

    private static GroupConfig cfg(String self, String peer, int priority) throws Exception {
        return new GroupConfig("lo", InetAddress.getByName(self), 8, 2, 100, "SLB-HA",
                InetAddress.getByName("127.0.0.100"), priority, false, 0, HELLO_MS, HOLD_MS,
                "ha-secret".getBytes(StandardCharsets.UTF_8), List.of(), List.of(InetAddress.getByName(peer)));
    }

    private GroupManager start(GroupConfig c, SimpleMeterRegistry reg, NoopVirtualAddressControl vips)
            throws Exception {
        GroupManager m = new GroupManager(List.of(c), vips, new LinkState.Fixed(), reg, NanoClock.system(), port);
        managers.add(m);
        m.start();
        return m;
    }

    @AfterEach
    void stop() {
        managers.forEach(GroupManager::close);
    }

    @Test
    void oneActiveOneStandbyThenTheStandbyTakesOverWithinTheHoldTimeAfterACrash() throws Exception {
        GroupManager a = start(cfg("127.0.0.2", "127.0.0.3", 110), regA, vipA);
        GroupManager b = start(cfg("127.0.0.3", "127.0.0.2", 100), regB, vipB);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.isActive("SLB-HA")
                && b.groups().get("SLB-HA").state() == HsrpState.STANDBY);
        assertThat(vipA.calls()).contains("acquire lo 127.0.0.100/8");
        assertThat(regA.get(HaMetrics.STATE).tag("state", "Active").gauge().value()).isEqualTo(1.0);
        assertThat(regB.get(HaMetrics.HELLOS_RECEIVED).counter().count()).isPositive();

        long killedNs = System.nanoTime();
        a.crash();
        await().atMost(Duration.ofSeconds(3)).until(() -> b.isActive("SLB-HA"));
        long tookMs = (System.nanoTime() - killedNs) / 1_000_000;
        // hold + probe timeout + scheduling slack; reported, and bounded loosely for a shared CI machine
        assertThat(tookMs).isLessThan(2000);
        assertThat(vipB.calls()).contains("acquire lo 127.0.0.100/8");
        assertThat(regB.get(HaMetrics.TRANSITIONS).tag("to", "Active").counter().count()).isEqualTo(1.0);
    }

    @Test
    void cutHeartbeatBothWaysDoesNotMakeTwoActivesBecauseTheVirtualAddressAnswers() throws Exception {
        GroupManager a = start(cfg("127.0.0.2", "127.0.0.3", 110), regA, vipA);
        GroupManager b = start(cfg("127.0.0.3", "127.0.0.2", 100), regB, vipB);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.isActive("SLB-HA")
                && b.groups().get("SLB-HA").state() == HsrpState.STANDBY);
        a.dropHellos(true);
        b.dropHellos(true);
        // watch for ten hold times: B's active timer expires repeatedly, its probe to 127.0.0.100 is answered by A
        long until = System.nanoTime() + Duration.ofMillis(10L * HOLD_MS).toNanos();
        while (System.nanoTime() < until) {
            assertThat(a.isActive("SLB-HA") && b.isActive("SLB-HA")).as("two actives").isFalse();
            Thread.onSpinWait();
        }
        assertThat(a.isActive("SLB-HA")).isTrue();
        assertThat(regB.get(HaMetrics.TAKEOVERS_WITHHELD).tag("reason", "vip_answers").counter().count()).isPositive();
        assertThat(regB.find(HaMetrics.TRANSITIONS).tag("to", "Active").counter()).isNull();
    }

    @Test
    void aReloadedHigherPriorityWithPreemptTakesOverWithoutARestart() throws Exception {
        GroupManager a = start(cfg("127.0.0.2", "127.0.0.3", 110), regA, vipA);
        GroupConfig bc = cfg("127.0.0.3", "127.0.0.2", 100);
        GroupManager b = start(bc, regB, vipB);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.isActive("SLB-HA")
                && b.groups().get("SLB-HA").state() == HsrpState.STANDBY);

        GroupConfig raised = new GroupConfig(bc.iface(), bc.address(), bc.prefix(), bc.version(), bc.group(),
                bc.name(), bc.vip(), 120, true, 0, bc.helloMs(), bc.holdMs(), bc.key(), bc.tracks(), bc.peers());
        assertThat(b.reconfigure(List.of(raised))).isEmpty();

        await().atMost(Duration.ofSeconds(10)).until(() -> b.isActive("SLB-HA")
                && a.groups().get("SLB-HA").state() == HsrpState.STANDBY);
        assertThat(b.groups().get("SLB-HA").config().priority()).isEqualTo(120);
        assertThat(a.groups().get("SLB-HA").peer().priority()).isEqualTo(120);
        assertThat(vipB.calls()).contains("acquire lo 127.0.0.100/8");
        assertThat(vipA.calls()).containsSubsequence("acquire lo 127.0.0.100/8", "release lo 127.0.0.100/8");
    }

    @Test
    void aReloadThatChangesWhatAGroupIsIsReportedAndLeavesItRunning() throws Exception {
        GroupConfig ac = cfg("127.0.0.2", "127.0.0.3", 110);
        GroupManager a = start(ac, regA, vipA);
        GroupConfig otherVip = new GroupConfig(ac.iface(), ac.address(), ac.prefix(), ac.version(), ac.group(),
                ac.name(), InetAddress.getByName("127.0.0.101"), 50, false, 0, ac.helloMs(), ac.holdMs(), ac.key(),
                ac.tracks(), ac.peers());
        GroupConfig added = new GroupConfig(ac.iface(), ac.address(), ac.prefix(), ac.version(), 7, "OTHER",
                InetAddress.getByName("127.0.0.102"), 100, false, 0, ac.helloMs(), ac.holdMs(), null, List.of(),
                ac.peers());

        assertThat(a.reconfigure(List.of(otherVip, added))).containsExactly(
                "HA group SLB-HA: interface, address, group number or virtual address changed: that takes effect "
                        + "after a restart of mclb",
                "HA group OTHER is new: it starts after a restart of mclb");
        assertThat(a.reconfigure(List.of())).containsExactly("HA group SLB-HA was removed: it runs until a restart of mclb");
        assertThat(a.reconfigure(List.of(ac))).isEmpty();
        assertThat(a.groups().get("SLB-HA").config()).isEqualTo(ac);
        assertThat(a.groups().get("SLB-HA").vip()).isEqualTo(InetAddress.getByName("127.0.0.100"));
    }

    @Test
    void theStandbyRefusesUnauthenticatedForeignReplayedAndMalformedHellos() throws Exception {
        GroupConfig bc = cfg("127.0.0.3", "127.0.0.2", 100);
        GroupManager b = new GroupManager(List.of(bc), vipB, new LinkState.Fixed(), regB, NanoClock.system(), port);
        StandbyGroup g = b.groups().get("SLB-HA");
        InetAddress a = InetAddress.getByName("127.0.0.2");
        Hello hello = new Hello(Hello.Type.HELLO, 100, HsrpState.ACTIVE, 255, false, 1000, HELLO_MS, HOLD_MS, 7, 5, 0,
                a, InetAddress.getByName("127.0.0.100"));
        java.net.InetSocketAddress from = new java.net.InetSocketAddress(a, port);

        byte[] wrongKey = new HelloCodec("other".getBytes(StandardCharsets.UTF_8)).encode(hello);
        b.received(null, from, wrongKey, wrongKey.length);
        byte[] none = new HelloCodec(null).encode(hello);
        b.received(null, from, none, none.length);
        HelloCodec good = new HelloCodec("ha-secret".getBytes(StandardCharsets.UTF_8));
        byte[] ok = good.encode(hello);
        byte[] tampered = ok.clone();
        tampered[8] ^= 1;
        b.received(null, from, tampered, tampered.length);
        b.received(null, new java.net.InetSocketAddress("127.0.0.9", port), ok, ok.length);
        byte[] foreign = good.encode(new Hello(Hello.Type.HELLO, 100, HsrpState.ACTIVE, 255, false, 1000, HELLO_MS,
                HOLD_MS, 7, 6, 0, InetAddress.getByName("127.0.0.9"), null));
        b.received(null, new java.net.InetSocketAddress("127.0.0.9", port), foreign, foreign.length);
        b.received(null, from, ok, 40);
        b.received(null, from, new byte[] {1, 2, 3}, 3);
        assertThat(g.peer()).as("nothing refused reached the state machine").isNull();

        b.received(null, from, ok, ok.length);
        assertThat(g.peer()).isNotNull();
        Hello older = new Hello(Hello.Type.HELLO, 100, HsrpState.ACTIVE, 255, false, 1000, HELLO_MS, HOLD_MS, 7, 4,
                0, a, null);
        byte[] replay = good.encode(older);
        b.received(null, from, replay, replay.length);
        byte[] oldBoot = good.encode(new Hello(Hello.Type.HELLO, 100, HsrpState.ACTIVE, 255, false, 1000, HELLO_MS,
                HOLD_MS, 6, 99, 0, a, null));
        b.received(null, from, oldBoot, oldBoot.length);

        assertThat(refused("bad_auth")).isEqualTo(3);
        assertThat(refused("unknown_peer")).isEqualTo(2);
        assertThat(refused("malformed")).isEqualTo(2);
        assertThat(refused("replay")).isEqualTo(2);
        assertThat(regB.get(HaMetrics.HELLOS_RECEIVED).counter().count()).isEqualTo(1.0);
    }

    private double refused(String reason) {
        var c = regB.find(HaMetrics.HELLOS_REFUSED).tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }
}
