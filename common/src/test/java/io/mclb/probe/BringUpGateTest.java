package io.mclb.probe;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The enhanced bring-up pattern of the Brocade ADX guide (seed 004), cycle by cycle: 75 server
 * ports, 30 ready first; the first cycle sends 30; 20 answer before the next, so with 45 more
 * ready it sends 40 (50 minus the 10 still out); once all 50 answered the third sends the last 5.
 * TCP and the other types have budgets of their own.
 */
class BringUpGateTest {
    private final List<Integer> admitted = new ArrayList<>();

    private void offer(BringUpGate g, BringUpClass c, int n) {
        for (int i = 0; i < n; i++) {
            int id = admitted.size() + i;
            g.offer(c, () -> admitted.add(id));
        }
    }

    private static void answer(BringUpGate g, BringUpClass c, int n) {
        for (int i = 0; i < n; i++) {
            g.finished(c);
        }
    }

    @Test
    void seventyFivePortsComeUpThirtyFortyFive() {
        BringUpGate g = new BringUpGate(50);
        offer(g, BringUpClass.TCP, 30);
        assertThat(g.cycle()[BringUpClass.TCP.ordinal()]).isEqualTo(30);
        answer(g, BringUpClass.TCP, 20);
        offer(g, BringUpClass.TCP, 45);
        assertThat(g.cycle()[BringUpClass.TCP.ordinal()]).as("50 minus the 10 still in flight").isEqualTo(40);
        assertThat(g.inFlight(BringUpClass.TCP)).isEqualTo(50);
        assertThat(g.cycle()[BringUpClass.TCP.ordinal()]).as("nothing answered: nothing topped up").isZero();
        answer(g, BringUpClass.TCP, 50);
        assertThat(g.cycle()[BringUpClass.TCP.ordinal()]).isEqualTo(5);
        assertThat(g.waiting(BringUpClass.TCP)).isZero();
        assertThat(g.started(BringUpClass.TCP)).isEqualTo(75);
    }

    @Test
    void tcpAndOtherTypesHaveSeparateBudgetsAndTheCapFollowsAReload() {
        BringUpGate g = new BringUpGate(50);
        offer(g, BringUpClass.TCP, 60);
        offer(g, BringUpClass.OTHER, 60);
        int[] first = g.cycle();
        assertThat(first[BringUpClass.TCP.ordinal()]).isEqualTo(50);
        assertThat(first[BringUpClass.OTHER.ordinal()]).isEqualTo(50);
        answer(g, BringUpClass.OTHER, 50);
        g.maxChecks(5);
        int[] second = g.cycle();
        assertThat(second[BringUpClass.TCP.ordinal()]).as("TCP still has 50 out").isZero();
        assertThat(second[BringUpClass.OTHER.ordinal()]).isEqualTo(5);
    }

    @Test
    void aCycleThatStartsNothingReportsZerosForEveryClassBeforeAndAfterOneThatStartedChecks() {
        BringUpGate g = new BringUpGate(50);
        assertThat(g.cycle()).as("nothing waiting").containsOnly(0).hasSize(BringUpClass.values().length);
        offer(g, BringUpClass.OTHER, 3);
        assertThat(g.cycle()[BringUpClass.OTHER.ordinal()]).isEqualTo(3);
        assertThat(g.cycle()).as("all three started already").containsOnly(0).hasSize(BringUpClass.values().length);
    }
}
