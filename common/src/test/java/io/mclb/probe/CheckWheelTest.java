package io.mclb.probe;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The loop's probe timers, driven by hand: when each runs, against the grid and its interval. */
class CheckWheelTest {
    private static final long SLOT = CheckWheel.SLOT_NS;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    private long now = 1_000 * S + 7 * MS; // off the grid
    private final CheckWheel wheel = new CheckWheel(now);
    private final List<String> ran = new ArrayList<>();

    /** Advances the time in grid steps up to {@code toNs}, as the loop's fixed-rate task does. */
    private void runUntil(long toNs) {
        while (now < toNs) {
            now = Math.min(toNs, (Math.floorDiv(now, SLOT) + 1) * SLOT);
            wheel.advance(now);
        }
    }

    private Runnable log(String name) {
        return () -> ran.add(name + "@" + (now - 1_000 * S) / MS);
    }

    @Test
    void aPeriodicTimerRunsOnTheGridAtFixedRateAndAOneShotOnce() {
        wheel.every(log("p"), now, 0, S);
        wheel.once(log("o"), now, 300 * MS);
        runUntil(now + 3 * S);
        // first grid point after 1,000.007 s is 1,000.020 s; one-shot at the first one >= 0.307 s
        assertThat(ran).containsExactly("p@20", "o@320", "p@1020", "p@2020");
        assertThat(wheel.live()).isEqualTo(1);
    }

    @Test
    void aLateLoopCatchesUpInOrderWithoutSkippingOrDoublingARun() {
        wheel.every(log("a"), now, 0, 100 * MS);
        wheel.every(log("b"), now, 50, 100 * MS);
        now += 350 * MS; // one late wake-up 350 ms after the start
        wheel.advance(now);
        assertThat(ran).containsExactly("a@357", "b@357", "a@357", "b@357", "a@357", "b@357", "a@357");
        ran.clear();
        runUntil(1_000 * S + 420 * MS);
        assertThat(ran).containsExactly("b@360", "a@420"); // back on the grid: 0.060 + 0.3, 0.020 + 0.4
    }

    @Test
    void aOneShotStartedByATimerCountsFromItsGridPoint() {
        List<CheckWheel.Entry> timeouts = new ArrayList<>();
        wheel.every(() -> {
            now += 3 * MS; // the loop got to this grid point 3 ms late
            timeouts.add(wheel.once(log("timeout"), now, 500 * MS));
        }, now, 0, S);
        runUntil(1_000 * S + S);
        assertThat(ran).containsExactly("timeout@520"); // 0.020 + 0.5, not 0.023 + 0.5 rounded up
    }

    @Test
    void cancelledTimersDoNotRunEvenWhenDueInTheSameTick() {
        CheckWheel.Entry[] victim = new CheckWheel.Entry[1];
        wheel.every(() -> {
            victim[0].cancel();
            ran.add("killer");
        }, now, 0, S);
        victim[0] = wheel.every(log("victim"), now, 0, S);
        CheckWheel.Entry gone = wheel.once(log("gone"), now, 200 * MS);
        gone.cancel();
        gone.cancel();
        runUntil(now + 2 * S);
        assertThat(ran).containsExactly("killer", "killer");
        assertThat(wheel.live()).isEqualTo(1);
    }

    @Test
    void intervalsLongerThanARevolutionRunOnlyWhenDue() {
        long revolution = CheckWheel.SLOTS * SLOT;
        wheel.every(log("slow"), now, 0, 15 * S);
        wheel.every(log("whole"), now, 0, revolution); // back into its own slot every time
        runUntil(now + 31 * S);
        assertThat(ran.stream().filter(r -> r.startsWith("slow"))).containsExactly("slow@20", "slow@15020", "slow@30020");
        assertThat(ran.stream().filter(r -> r.startsWith("whole"))).containsExactly("whole@20", "whole@10260",
                "whole@20500", "whole@30740");
    }

    @Test
    void aTimerThatThrowsIsStoppedAndTheOthersGoOn() {
        wheel.every(() -> {
            throw new IllegalStateException("bug");
        }, now, 0, S);
        wheel.every(log("ok"), now, 0, S);
        runUntil(now + 2 * S);
        assertThat(ran).containsExactly("ok@20", "ok@1020");
        assertThat(wheel.live()).isEqualTo(1);
    }

    @Test
    void aTimerAddedForNowIsDueAtTheNextGridPointNotAfterARevolution() {
        now = 2_000 * S; // exactly on the grid, and that tick already ran
        CheckWheel w = new CheckWheel(now);
        List<Long> at = new ArrayList<>();
        w.every(() -> at.add(now), now, 0, S);
        now += SLOT;
        w.advance(now);
        assertThat(at).containsExactly(2_000 * S + SLOT);
    }
}
