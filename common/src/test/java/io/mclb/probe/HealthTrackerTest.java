package io.mclb.probe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The judgement every probe type shares (moved here with the gtp-echo judge's failure counting). */
class HealthTrackerTest {
    @Test
    void failsOnTheFaildetectThMissAndRecoversOnOneAnswer() {
        HealthTracker h = new HealthTracker();
        assertThat(h.record(true, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(h.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(h.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(h.record(false, 3)).isEqualTo(HealthTracker.Change.FAILED);
        assertThat(h.record(false, 3)).as("transitions only").isEqualTo(HealthTracker.Change.NONE);
        assertThat(h.record(true, 3)).isEqualTo(HealthTracker.Change.RECOVERED);
        assertThat(h.failed()).isFalse();
    }

    @Test
    void aMissBetweenAnswersResetsTheStreak() {
        HealthTracker h = new HealthTracker();
        h.record(false, 2);
        h.record(true, 2);
        assertThat(h.record(false, 2)).isEqualTo(HealthTracker.Change.NONE);
    }

    @Test
    void judgeFailsAfterFaildetectConsecutiveFailuresAndRecoversOnOneSuccess() {
        // the RADIUS probe judge's test, moved here with the judgement
        HealthTracker j = new HealthTracker();
        assertThat(j.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(j.record(true, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(j.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(j.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(j.record(false, 3)).isEqualTo(HealthTracker.Change.FAILED);
        assertThat(j.record(false, 3)).isEqualTo(HealthTracker.Change.NONE);
        assertThat(j.record(true, 3)).isEqualTo(HealthTracker.Change.RECOVERED);
        assertThat(j.failed()).isFalse();
    }
}
