package io.mclb.gtp.lb;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GtpEchoJudgeTest {
    @Test
    void failsOnTheFaildetectThMissAndRecoversOnOneAnswer() {
        GtpEchoJudge j = new GtpEchoJudge();
        assertThat(j.answered(5)).isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.unanswered(3)).isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.unanswered(3)).isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.unanswered(3)).isEqualTo(GtpEchoJudge.FAILED);
        assertThat(j.unanswered(3)).as("transitions only").isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.answered(5)).isEqualTo(GtpEchoJudge.RECOVERED);
        assertThat(j.failed()).isFalse();
    }

    @Test
    void aMissBetweenAnswersResetsTheStreak() {
        GtpEchoJudge j = new GtpEchoJudge();
        j.unanswered(2);
        j.answered(-1);
        assertThat(j.unanswered(2)).isEqualTo(GtpEchoJudge.NONE);
    }

    @Test
    void aChangedRecoveryIsARestartTheFirstOneOnlyLearns() {
        GtpEchoJudge j = new GtpEchoJudge();
        assertThat(j.answered(7)).isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.answered(-1)).as("an answer without Recovery changes nothing").isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.answered(7)).isEqualTo(GtpEchoJudge.NONE);
        assertThat(j.answered(8)).isEqualTo(GtpEchoJudge.RESTARTED);
        j.unanswered(1);
        assertThat(j.answered(9)).isEqualTo(GtpEchoJudge.RECOVERED | GtpEchoJudge.RESTARTED);
        assertThat(j.lastRecovery()).isEqualTo(9);
    }
}
