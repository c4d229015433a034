package io.mclb.ha.group;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.mclb.ha.group.HsrpState.ACTIVE;
import static io.mclb.ha.group.HsrpState.SPEAK;
import static io.mclb.ha.group.HsrpState.STANDBY;
import static io.mclb.ha.group.PairHarness.HOLD_MS;
import static io.mclb.ha.group.PairHarness.config;
import static org.assertj.core.api.Assertions.assertThat;

/** The group state machine on a manual clock: election, hold expiry, preempt, tracking, operator, split brain. */
class StandbyGroupTest {

    private static PairHarness pair(int prioA, boolean preemptA, long delayA, int prioB, boolean preemptB) {
        return new PairHarness(config("10.0.0.2", prioA, preemptA, delayA, List.of()),
                config("10.0.0.3", prioB, preemptB, 0, List.of()));
    }

    private static PairHarness converged(PairHarness p) {
        p.a.boot();
        p.b.boot();
        p.run(6 * HOLD_MS);
        return p;
    }

    @Test
    void higherPriorityIsElectedActiveTheOtherStandby() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        assertThat(p.a.transitions).containsExactly("LISTEN", "SPEAK", "STANDBY", "ACTIVE");
        assertThat(p.b.transitions).doesNotContain("ACTIVE");
    }

    @Test
    void equalPriorityIsBrokenByTheHigherAddress() {
        PairHarness p = converged(pair(100, false, 0, 100, false));
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.a.state()).isEqualTo(STANDBY);
    }

    @Test
    void standbyTakesOverWhenTheActiveIsSilentForTheHoldTime() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        p.a.kill();
        p.run(HOLD_MS - 20);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        // hold, then one probe timeout (half the hold time) with no answer from the virtual address
        p.run(20 + HOLD_MS / 2 + 20);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
    }

    @Test
    void withoutPreemptARestartedHigherPriorityNodeStaysStandby() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        p.a.kill();
        p.run(2 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        p.a.boot();
        p.run(20 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.a.state()).isEqualTo(STANDBY);
    }

    @Test
    void preemptTakesBackTheActiveRoleOnlyAfterTheDelay() {
        PairHarness p = pair(110, true, 5000, 100, false);
        p.b.boot();
        p.run(6 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        p.a.boot();
        p.run(4000);
        assertThat(p.a.state()).isEqualTo(STANDBY);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        p.run(1100);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.b.transitions).contains("SPEAK");
        p.run(6 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(STANDBY);
    }

    @Test
    void aTrackedInterfaceDownLowersPriorityAndAPreemptingPeerTakesOver() {
        PairHarness p = new PairHarness(
                config("10.0.0.2", 110, false, 0, List.of(new GroupConfig.Track(1, "eth1", 20))),
                config("10.0.0.3", 100, true, 0, List.of()));
        converged(p);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        p.a.links.set("eth1", false);
        assertThat(p.a.group.effectivePriority()).isEqualTo(90);
        p.run(3 * PairHarness.HELLO_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.a.state()).isEqualTo(SPEAK);
    }

    @Test
    void forcedActiveWinsAndResetKeepsTheRoleWithoutPreempt() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        p.b.group.forceActive(p.clock.nanoTime());
        p.run(3 * PairHarness.HELLO_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.a.state()).isNotEqualTo(ACTIVE);
        p.b.group.reset(p.clock.nanoTime());
        p.run(10 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
        assertThat(p.a.state()).isEqualTo(STANDBY);
    }

    @Test
    void cutHeartbeatWithTheVirtualAddressAnsweringNeverMakesTwoActives() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        p.a.linkOut = false;
        p.b.linkOut = false;
        for (int i = 0; i < 200; i++) {
            p.run(10);
            assertThat(p.a.state() == ACTIVE && p.b.state() == ACTIVE).as("two actives at step " + i).isFalse();
        }
        assertThat(p.a.state()).isEqualTo(ACTIVE);
        assertThat(p.b.withheld).contains("vip_answers");
    }

    @Test
    void theSideWithWorseConnectivityWithholdsThenTakesOverWhenThePeerStaysSilent() {
        PairHarness p = new PairHarness(config("10.0.0.2", 110, false, 0, List.of()),
                config("10.0.0.3", 100, false, 0, List.of(new GroupConfig.Track(1, "eth1", 10))));
        converged(p);
        p.b.links.set("eth1", false);
        p.run(PairHarness.HELLO_MS);
        p.a.kill();
        p.run(2 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(STANDBY);
        assertThat(p.b.withheld).containsExactly("connectivity");
        p.run(2 * HOLD_MS);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
    }

    @Test
    void aNodeAloneBecomesActiveAfterListenAndSpeakAndASilentProbe() {
        PairHarness p = pair(100, false, 0, 100, false);
        p.a.boot();
        p.run(2 * HOLD_MS - 10);
        assertThat(p.a.state()).isEqualTo(SPEAK);
        p.run(HOLD_MS / 2 + 20);
        assertThat(p.a.state()).isEqualTo(ACTIVE);
    }

    @Test
    void aResigningActiveHandsOverAtOnce() {
        PairHarness p = converged(pair(110, false, 0, 100, false));
        p.a.group.stop(p.clock.nanoTime());
        p.run(10);
        assertThat(p.b.state()).isEqualTo(ACTIVE);
    }
}
