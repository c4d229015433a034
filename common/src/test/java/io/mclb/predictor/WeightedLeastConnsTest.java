package io.mclb.predictor;

import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealStateListener;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WeightedLeastConnsTest {
    private final ManualClock clock = new ManualClock();
    private final long now = clock.nanoTime();
    private final WeightedLeastConns wlc = new WeightedLeastConns();

    /** weights[i] with conns[i] active connections each. */
    private RealServer[] reals(int[] weights, int[] conns) {
        RealServer[] r = new RealServer[weights.length];
        for (int i = 0; i < weights.length; i++) {
            r[i] = new RealServer("f", RealConfigs.real("192.0.2." + (i + 1), weights[i]), clock, RealStateListener.NONE);
            for (int c = 0; c < conns[i]; c++) {
                assertThat(r[i].tryAcquire(now, false)).isTrue();
            }
        }
        return r;
    }

    @Test
    void picksLowestConnsPerWeight() {
        // ratios 1/1, 3/4, 2/2 -> B
        RealServer[] r = reals(new int[]{1, 4, 2}, new int[]{1, 3, 2});
        for (int cursor = 0; cursor < 3; cursor++) {
            assertThat(wlc.choose(r, cursor, now, null, false)).isEqualTo(1);
        }
        // ratios 5/8 vs 1/1: heavier weight wins despite more connections
        RealServer[] s = reals(new int[]{8, 1}, new int[]{5, 1});
        assertThat(wlc.choose(s, 1, now, null, false)).isZero();
    }

    @Test
    void tiesRotateFromTheCursor() {
        RealServer[] r = reals(new int[]{8, 8, 8}, new int[]{0, 0, 0});
        assertThat(wlc.choose(r, 0, now, null, false)).isEqualTo(0);
        assertThat(wlc.choose(r, 1, now, null, false)).isEqualTo(1);
        assertThat(wlc.choose(r, 2, now, null, false)).isEqualTo(2);
        assertThat(wlc.choose(r, 3, now, null, false)).isEqualTo(0);
        // ratio ties (1/2 == 2/4) also rotate
        RealServer[] t = reals(new int[]{2, 4, 1}, new int[]{1, 2, 5});
        assertThat(wlc.choose(t, 0, now, null, false)).isEqualTo(0);
        assertThat(wlc.choose(t, 1, now, null, false)).isEqualTo(1);
        assertThat(wlc.choose(t, 2, now, null, false)).isEqualTo(0);
    }

    @Test
    void weightZeroIneligibleAndExcludedAreNeverChosen() {
        RealServer[] r = reals(new int[]{0, 8, 8}, new int[]{0, 0, 3});
        assertThat(wlc.choose(r, 0, now, null, false)).isEqualTo(1);
        assertThat(wlc.choose(r, 0, now, r[1], false)).isEqualTo(2);
        r[2].fail(now, "test");
        assertThat(wlc.choose(r, 0, now, r[1], false)).isEqualTo(-1);
        assertThat(wlc.choose(new RealServer[0], 0, now, null, false)).isEqualTo(-1);
    }
}
