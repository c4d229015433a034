package io.mclb.ha.group;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import static io.mclb.ha.group.HsrpState.ACTIVE;
import static io.mclb.ha.group.HsrpState.INITIAL;
import static io.mclb.ha.group.HsrpState.STANDBY;
import static io.mclb.ha.group.PairHarness.HOLD_MS;
import static io.mclb.ha.group.PairHarness.config;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * LocalDirector's failover layer on a manual clock (seed 000): the interface tests in order when
 * hellos stop (link, network activity, ARP of the peer then of the ARP cache, broadcast ping), Failed
 * and its way out (autorecovery after a lost link, {@code failover reset}), Waiting, {@code no failover
 * active}, and an orderly stop with and without handover (seed 002). The network activity window
 * is one hello period here ({@link PairHarness#HELLO_MS}); each ARP and the ping listen
 * {@link FailoverMonitor#MIN_REPLY_WINDOW_MS}.
 */
class FailoverInterfaceTestsTest {
    private static final long WINDOW_MS = PairHarness.HELLO_MS;
    private static final long REPLY_WINDOW_MS = FailoverMonitor.MIN_REPLY_WINDOW_MS;

    /** A (10.0.0.2, priority 110) and B (10.0.0.3, 100), not booted. */
    private static PairHarness fresh(boolean preemptA) {
        return new PairHarness(config("10.0.0.2", 110, preemptA, 0, List.of()),
                config("10.0.0.3", 100, false, 0, List.of()));
    }

    private static PairHarness converged(boolean preemptA) {
        PairHarness p = fresh(preemptA);
        p.a.boot();
        p.b.boot();
        p.run(6 * HOLD_MS);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        return p;
    }

    private static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void monitoringWaitsForSixHellosThenIsNormal() {
        PairHarness p = fresh(false);
        p.a.boot();
        p.b.boot();
        assertThat(p.a.group.failover().waiting()).isTrue();
        p.run(6 * HOLD_MS);
        assertThat(p.a.group.failover().waiting()).isFalse();
        assertThat(p.b.group.failover().waiting()).isFalse();
        assertThat(p.a.group.failoverState()).isEqualTo("Active");
        assertThat(p.b.group.failoverState()).isEqualTo("Standby");
    }

    @Test
    void aNodeAloneOnAQuietSegmentComesUpActiveBecauseWaitingRunsOnlyTheLinkTest() {
        PairHarness p = fresh(false);
        p.a.tests.ambient = false;
        p.a.boot();
        p.run(4 * HOLD_MS);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.a.tests.sent).isEmpty();
        assertThat(p.a.group.lastReason()).contains("only the link test");
    }

    @Test
    void aNodeAloneWithItsLinkDownGoesFailedInsteadOfActive() {
        PairHarness p = fresh(false);
        p.a.tests.link = false;
        p.a.boot();
        p.run(4 * HOLD_MS);
        assertThat(p.a.group.failoverState()).isEqualTo("Failed");
        assertThat(p.a.transitions).doesNotContain("ACTIVE");
    }

    @Test
    void aStandbyWhoseTestsPassByArpTakesOverAfterTryingTheTestsInOrder() {
        PairHarness p = converged(false);
        FakeInterfaceTestIo t = p.b.tests;
        t.ambient = false;
        t.cache.add(ip("10.0.0.9"));
        t.answeringArp.add(ip("10.0.0.9"));
        p.a.kill();
        // the hold runs out 200-300 ms after the kill (the last hello came up to a hello period before
        // it); then one window of listening for network activity, then the dead peer's ARP goes
        // unanswered for a reply window before the cached host is tried
        p.run(HOLD_MS + WINDOW_MS);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        assertThat(t.sent).containsExactly("arp 10.0.0.2");
        p.run(REPLY_WINDOW_MS);
        assertThat(t.sent).containsExactly("arp 10.0.0.2", "arp 10.0.0.9");
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.b.group.failed()).isFalse();
    }

    @Test
    void aBroadcastPingAnsweredLaterThanAHelloPeriodStillPassesTheInterface() {
        PairHarness p = converged(false);
        FakeInterfaceTestIo t = p.b.tests;
        t.ambient = false;
        p.a.kill();
        for (int i = 0; i < 300 && !t.sent.contains("ping 10.0.0.255"); i++) {
            p.run(10);
        }
        assertThat(t.sent).containsExactly("arp 10.0.0.2", "ping 10.0.0.255");
        // a loaded box started ping late: its answer comes after three hello periods
        p.run(3 * WINDOW_MS);
        assertThat(p.b.group.failed()).isFalse();
        t.rx++;
        p.run(WINDOW_MS);
        assertThat(p.b.group.failed()).isFalse();
        assertThat(p.b.state()).isEqualTo(ACTIVE);
    }

    @Test
    void aStandbyWhoseProbeIsAnsweredDuringTheTestsWithholdsAndNeverFailsOnAQuietSegment() {
        PairHarness p = converged(false);
        // nothing on the segment answers the tests: only the active's answer on the virtual address
        // shows that B's interface receives
        p.b.tests.ambient = false;
        p.a.linkOut = false;
        p.b.linkOut = false;
        p.run(20 * HOLD_MS);
        assertThat(p.b.group.failed()).isFalse();
        assertThat(p.b.transitions).doesNotContain("ACTIVE");
        assertThat(p.b.withheld).contains("vip_answers");
        assertThat(p.a.state()).isEqualTo(ACTIVE);
    }

    @Test
    void aStandbyWhoseOwnLinkIsDownGoesFailedNeverTakesOverAndRecoversWithTheLink() {
        PairHarness p = converged(false);
        p.b.tests.link = false;
        p.b.linkIn = false;
        p.b.linkOut = false;
        p.run(HOLD_MS + 20);
        assertThat(p.b.group.failed()).isTrue();
        assertThat(p.b.state()).isEqualTo(INITIAL);
        assertThat(p.b.group.failoverState()).isEqualTo("Failed");
        assertThat(p.b.group.lastReason()).contains("interface tests failed", "link down on eth0");
        int sent = p.b.sentTypes.size();
        p.run(20 * HOLD_MS);
        assertThat(p.b.transitions).doesNotContain("ACTIVE");
        assertThat(p.b.sentTypes).as("a Failed node is silent").hasSize(sent);
        // the active's own tests pass: it keeps serving and waits for its peer again
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.a.group.failover().waiting()).isTrue();

        assertThat(p.b.group.reset(p.clock.nanoTime())).contains("stays Failed", "link down on eth0");
        assertThat(p.b.group.failed()).isTrue();
        p.b.tests.link = true;
        p.b.linkIn = true;
        p.b.linkOut = true;
        p.run(6 * HOLD_MS);
        assertThat(p.b.group.failed()).isFalse();
        assertThat(p.b.reasons).anyMatch(r -> r.contains("autorecovered"));
        assertThat(p.b.state()).isEqualTo(STANDBY);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
    }

    @Test
    void aStandbyThatHearsNothingFailsAfterTheWholeSeriesAndResetNeedsTrafficFirst() {
        PairHarness p = converged(false);
        FakeInterfaceTestIo t = p.b.tests;
        t.ambient = false;
        t.cache.add(ip("10.0.0.8"));
        t.cache.add(ip("10.0.0.2")); // the peer is in the cache too: tried once
        p.a.kill();
        p.run(HOLD_MS + WINDOW_MS + 3 * REPLY_WINDOW_MS + 40);
        assertThat(t.sent).containsExactly("arp 10.0.0.2", "arp 10.0.0.8", "ping 10.0.0.255");
        assertThat(p.b.group.failed()).isTrue();
        assertThat(p.b.group.failover().failedReason()).contains("no traffic received on eth0");
        assertThat(p.b.transitions).doesNotContain("ACTIVE");

        assertThat(p.b.group.reset(p.clock.nanoTime())).contains("no traffic received on eth0 since");
        t.rx += 3; // the network is back
        t.ambient = true;
        assertThat(p.b.group.reset(p.clock.nanoTime())).isNull();
        assertThat(p.b.group.failed()).isFalse();
        assertThat(p.b.group.lastReason()).contains("failover reset");
        p.run(4 * HOLD_MS);
        assertThat(p.b.state()).as("alone again, it comes up active by the cold path").isEqualTo(ACTIVE);
    }

    @Test
    void anActiveWhoseOwnLinkFailsGoesFailedAndReleasesWhileTheSurvivorTakesOver() {
        PairHarness p = converged(false);
        p.a.tests.link = false;
        p.a.linkIn = false;
        p.a.linkOut = false;
        boolean both = false;
        for (int i = 0; i < 40; i++) {
            p.run(50);
            both |= p.a.state() == ACTIVE && p.b.state() == ACTIVE;
        }
        assertThat(p.a.group.failoverState()).isEqualTo("Failed");
        assertThat(p.a.transitions.get(p.a.transitions.size() - 1)).isEqualTo("INITIAL");
        assertThat(p.a.sentTypes).contains(Hello.Type.RESIGN);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(both).as("the cut node left Active before the survivor took over").isFalse();
    }

    @Test
    void noFailoverActiveHandsOverAtOnceAndKeepsPreemptAwayUntilReset() {
        PairHarness p = converged(true);
        assertThat(p.b.group.yieldActive(p.clock.nanoTime())).contains("not Active");
        assertThat(p.a.group.yieldActive(p.clock.nanoTime())).isNull();
        p.run(10);
        assertThat(p.b.state()).as("took over on the resign, not after a hold time").isEqualTo(ACTIVE);
        int before = p.a.transitions.size();
        p.run(20 * HOLD_MS);
        assertThat(p.a.transitions.subList(before, p.a.transitions.size())).doesNotContain("ACTIVE");
        assertThat(p.a.state()).isEqualTo(STANDBY);
        assertThat(p.a.group.reset(p.clock.nanoTime())).isNull();
        p.run(2 * HOLD_MS);
        assertThat(p.a.state()).as("preempt applies again after reset").isEqualTo(ACTIVE);
    }

    @Test
    void noFailoverActiveIsRefusedWithoutAStandbyToTakeOver() {
        PairHarness p = converged(false);
        p.b.kill();
        p.run(2 * HOLD_MS);
        assertThat(p.a.group.yieldActive(p.clock.nanoTime())).contains("no standby peer");
        assertThat(p.a.state()).isEqualTo(ACTIVE);
    }

    @Test
    void anOrderlyStopHandsOverWithinOneDeliveryByDefault() {
        PairHarness p = converged(false);
        p.a.group.stop(p.clock.nanoTime());
        p.run(5);
        assertThat(p.a.sentTypes.get(p.a.sentTypes.size() - 1)).isEqualTo(Hello.Type.RESIGN);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.b.group.lastReason()).contains("resigned");
    }

    @Test
    void anOrderlyStopWithoutHandoverLeavesTheStandbyStandingByUntilForced() {
        PairHarness p = converged(false);
        p.a.group.stop(p.clock.nanoTime(), false);
        p.run(5);
        p.a.kill();
        assertThat(p.a.sentTypes.get(p.a.sentTypes.size() - 1)).isEqualTo(Hello.Type.STOP);
        int before = p.b.transitions.size();
        p.run(20 * HOLD_MS);
        assertThat(p.b.transitions).hasSize(before);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        assertThat(p.b.group.forceActive(p.clock.nanoTime())).isNull();
        assertThat(p.b.state()).isEqualTo(ACTIVE);
    }
}
