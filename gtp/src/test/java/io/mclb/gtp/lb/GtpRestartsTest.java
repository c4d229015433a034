package io.mclb.gtp.lb;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Restart detection from echo answers' Recovery (the Recovery half of the former gtp-echo judge). */
class GtpRestartsTest {
    @Test
    void aChangedRecoveryIsARestartTheFirstOneOnlyLearns() {
        GtpRestarts r = new GtpRestarts();
        assertThat(r.restarted(1, 7)).isFalse();
        assertThat(r.restarted(1, -1)).as("an answer without Recovery changes nothing").isFalse();
        assertThat(r.restarted(1, 7)).isFalse();
        assertThat(r.restarted(1, 8)).isTrue();
        assertThat(r.restarted(1, 9)).isTrue();
        assertThat(r.restarted(2, 9)).as("each GGSN has its own counter").isFalse();
    }
}
