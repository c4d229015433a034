package io.mclb.farm;

import io.mclb.config.RealConfig;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.mclb.farm.RealConfigs.real;
import static org.assertj.core.api.Assertions.assertThat;

class RealServerTest {
    private static final long UNLIMITED = RealConfig.DEFAULT_MAXCONNS;
    private final ManualClock clock = new ManualClock();
    private final List<String> transitions = new ArrayList<>();
    private final RealStateListener recorder = (r, from, to, why) -> transitions.add(from + "->" + to);

    private RealServer server(RealConfig c) {
        return new RealServer("farm1", c, clock, recorder);
    }

    private long now() {
        return clock.nanoTime();
    }

    @Test
    void iosDefaultsAndIdentity() {
        RealConfig d = RealConfig.defaults(RealConfigs.ip("192.0.2.1"), 0, null);
        RealServer r = server(d);
        assertThat(r.state()).isEqualTo(RealState.OUTOFSERVICE);
        assertThat(r.isEligible(now(), false)).isFalse();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        assertThat(r.operWeight()).isEqualTo(8);
        assertThat(r.label()).isEqualTo("192.0.2.1");
        assertThat(r.id()).isEqualTo(RealId.of("farm1", RealConfigs.ip("192.0.2.1"), 0));
        assertThat(server(real("192.0.2.1", 3386, 8, UNLIMITED, UNLIMITED, 0, 8, 8, true, 60)).label())
                .isEqualTo("192.0.2.1:3386");
        assertThat(server(real("2001:db8::1", 1812, 8, UNLIMITED, UNLIMITED, 0, 8, 8, true, 60)).label())
                .isEqualTo("[2001:db8:0:0:0:0:0:1]:1812");
    }

    @Test
    void numconnsConsecutiveFailuresFailTheReal() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 4, 8, true, 60));
        assertThat(r.onFailure(now(), 1)).isFalse();
        assertThat(r.onFailure(now(), 1)).isFalse();
        assertThat(r.onFailure(now(), 1)).isFalse();
        r.onAnswered(now()); // resets the streak
        assertThat(r.onFailure(now(), 1)).isFalse();
        assertThat(r.onFailure(now(), 1)).isFalse();
        assertThat(r.onFailure(now(), 1)).isFalse();
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.onFailure(now(), 1)).isTrue();
        assertThat(r.state()).isEqualTo(RealState.FAILED);
        assertThat(r.failures()).isEqualTo(7);
        assertThat(r.onFailure(now(), 1)).as("already failed: ignored").isFalse();
        assertThat(r.failures()).isEqualTo(7);
        assertThat(transitions).containsExactly("OPERATIONAL->FAILED");
    }

    @Test
    void numclientsDistinctFailingClientsFailTheReal() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 8, 3, true, 60));
        assertThat(r.onFailure(now(), 10)).isFalse();
        assertThat(r.onFailure(now(), 20)).isFalse();
        assertThat(r.onFailure(now(), 10)).isFalse();
        assertThat(r.onFailure(now(), 20)).isFalse();
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.onFailure(now(), 30)).as("third distinct client").isTrue();
        assertThat(r.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void answerClearsTheDistinctClientSet() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 8, 2, true, 60));
        assertThat(r.onFailure(now(), 10)).isFalse();
        r.onAnswered(now());
        assertThat(r.onFailure(now(), 20)).isFalse();
        assertThat(r.onFailure(now(), 10)).isTrue();
    }

    @Test
    void retryTestConnectionAndAutomaticUnfail() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 1, 1, true, 60));
        assertThat(r.onFailure(now(), 1)).isTrue();
        clock.advanceSeconds(59);
        assertThat(r.isEligible(now(), false)).isFalse();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        clock.advanceSeconds(1);
        assertThat(r.isEligible(now(), false)).isTrue();
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(r.state()).isEqualTo(RealState.TESTING);
        assertThat(r.isEligible(now(), false)).isFalse();
        assertThat(r.tryAcquire(now(), false)).as("only one test at a time").isFalse();
        assertThat(r.activeConnections()).isEqualTo(1);
        r.onAnswered(now());
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(transitions).containsExactly("OPERATIONAL->FAILED", "FAILED->TESTING", "TESTING->OPERATIONAL");
    }

    @Test
    void failedTestRestartsTheRetryTimer() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 8, 8, true, 30));
        r.fail(now(), "operator");
        clock.advanceSeconds(30);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        clock.advanceSeconds(5);
        assertThat(r.onFailure(now(), 1)).as("test failed").isTrue();
        assertThat(r.state()).isEqualTo(RealState.FAILED);
        clock.advanceSeconds(29);
        assertThat(r.isEligible(now(), false)).isFalse();
        clock.advanceSeconds(1);
        assertThat(r.isEligible(now(), false)).isTrue();
        assertThat(transitions).containsExactly("OPERATIONAL->FAILED", "FAILED->TESTING", "TESTING->FAILED");
    }

    @Test
    void lostTestConnectionIsReissuedAfterAnotherRetry() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 8, 8, true, 10));
        r.fail(now(), "operator");
        clock.advanceSeconds(10);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        clock.advanceSeconds(9);
        assertThat(r.tryAcquire(now(), false)).isFalse();
        clock.advanceSeconds(1);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        assertThat(r.state()).isEqualTo(RealState.TESTING);
    }

    @Test
    void inbandOffIgnoresFailures() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 1, 1, false, 60));
        for (int i = 0; i < 20; i++) {
            assertThat(r.onFailure(now(), i)).isFalse();
        }
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.failures()).isZero();
    }

    @Test
    void maxconnsCapsAndReleaseFrees() {
        RealServer r = server(real("192.0.2.1", 0, 8, 2, UNLIMITED, 0, 8, 8, true, 60));
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(r.isEligible(now(), false)).isFalse();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        assertThat(r.state()).isEqualTo(RealState.MAXCONNS);
        r.release();
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        r.release();
        r.release();
        r.release();
        assertThat(r.activeConnections()).as("never below zero").isZero();
        assertThat(r.assignments()).isEqualTo(3);
        assertThat(transitions).as("load-driven states are not reported").isEmpty();
    }

    @Test
    void maxclientsLimitsOnlyNewClients() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, 2, 0, 8, 8, true, 60));
        r.clientAdded();
        r.clientAdded();
        assertThat(r.state()).isEqualTo(RealState.MAXCLIENTS);
        assertThat(r.tryAcquire(now(), true)).isFalse();
        assertThat(r.tryAcquire(now(), false)).isTrue();
        r.clientRemoved();
        assertThat(r.tryAcquire(now(), true)).isTrue();
        r.setClients(0);
        r.clientRemoved();
        assertThat(r.clients()).isZero();
    }

    @Test
    void rateLimitsNewConnectionsPerSecond() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 3, 8, 8, true, 60));
        clock.advanceMillis(1_000 - clock.nanoTime() / 1_000_000 % 1_000); // start of a second
        for (int i = 0; i < 3; i++) {
            assertThat(r.tryAcquire(now(), false)).isTrue();
            clock.advanceMillis(100);
        }
        assertThat(r.isEligible(now(), false)).isFalse();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        assertThat(r.activeConnections()).as("refused acquire leaves no connection").isEqualTo(3);
        clock.advanceMillis(700);
        assertThat(r.isEligible(now(), false)).isTrue();
        assertThat(r.tryAcquire(now(), false)).isTrue();
    }

    @Test
    void weightZeroTakesNoNewWork() {
        RealServer r = server(real("192.0.2.1", 0, 8, UNLIMITED, UNLIMITED, 0, 8, 8, true, 60));
        r.setDfpWeight(0);
        assertThat(r.state()).isEqualTo(RealState.DFP_THROTTLED);
        assertThat(r.operWeight()).isZero();
        assertThat(r.tryAcquire(now(), false)).isFalse();
        r.setDfpWeight(20);
        assertThat(r.operWeight()).isEqualTo(20);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        r.setDfpWeight(-1);
        assertThat(r.operWeight()).isEqualTo(8);
        assertThat(transitions).containsExactly("OPERATIONAL->DFP_THROTTLED", "DFP_THROTTLED->OPERATIONAL");

        RealServer zero = server(real("192.0.2.2", 0, 0, UNLIMITED, UNLIMITED, 0, 8, 8, true, 60));
        assertThat(zero.isEligible(now(), false)).isFalse();
        assertThat(zero.tryAcquire(now(), false)).isFalse();
    }

    @Test
    void weightZeroStillServesTheSubscribersTheRealHolds() {
        RealServer r = server(real("192.0.2.1", 0, 8, 2, UNLIMITED, 0, 8, 8, true, 60));
        r.setDfpWeight(0);
        assertThat(r.isEligible(now(), false)).as("no new work").isFalse();
        assertThat(r.isEligibleHeld(now())).as("held subscriber").isTrue();
        assertThat(r.tryAcquireHeld(now())).isTrue();
        assertThat(r.tryAcquireHeld(now())).isTrue();
        assertThat(r.tryAcquireHeld(now())).as("maxconns still applies").isFalse();
        r.release();
        r.setProbeFailed(true);
        assertThat(r.tryAcquireHeld(now())).as("a probe-failed real serves nobody").isFalse();
    }

    @Test
    void probeFailureTakesTheRealOut() {
        RealServer r = server(real("192.0.2.1", 8));
        r.setProbeFailed(true);
        assertThat(r.state()).isEqualTo(RealState.PROBE_FAILED);
        assertThat(r.tryAcquire(now(), false)).isFalse();
        r.setProbeFailed(false);
        assertThat(r.tryAcquire(now(), false)).isTrue();
        assertThat(transitions).containsExactly("OPERATIONAL->PROBE_FAILED", "PROBE_FAILED->OPERATIONAL");
    }

    @Test
    void updateConfigKeepsCountersAndState() {
        RealServer r = server(real("192.0.2.1", 8));
        r.tryAcquire(now(), false);
        r.tryAcquire(now(), false);
        r.clientAdded();
        r.fail(now(), "operator");
        r.updateConfig(real("192.0.2.1", 20));
        assertThat(r.state()).isEqualTo(RealState.FAILED);
        assertThat(r.activeConnections()).isEqualTo(2);
        assertThat(r.clients()).isEqualTo(1);
        assertThat(r.assignments()).isEqualTo(2);
        assertThat(r.operWeight()).isEqualTo(20);
        r.updateConfig(real("192.0.2.1", 20).withInService(false));
        assertThat(r.state()).isEqualTo(RealState.OUTOFSERVICE);
        r.updateConfig(real("192.0.2.1", 20));
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.activeConnections()).isEqualTo(2);
        assertThat(transitions).containsExactly("OPERATIONAL->FAILED", "FAILED->OUTOFSERVICE", "OUTOFSERVICE->OPERATIONAL");
    }
}
