package io.mclb.sticky;

import io.mclb.sticky.StickyChangeListener.RemoveReason;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StickyExpirySweeperTest {
    @TempDir
    Path dir;

    @Test
    void runOnceRemovesWhatHasExpiredByTheClock() {
        ManualClock clock = new ManualClock(0, 1_700_000_000_000L);
        long nowS = clock.epochMillis() / 1000;
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000);
             StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofSeconds(10))) {
            ChronicleStickyTableTest.RecordingListener events = new ChronicleStickyTableTest.RecordingListener();
            table.addListener(events);
            table.put(ChronicleStickyTableTest.imsi("1"), new StickyValue().set(1, nowS, nowS + 30));
            table.put(ChronicleStickyTableTest.imsi("2"), new StickyValue().set(2, nowS, nowS + 90));

            assertThat(sweeper.runOnce()).isZero();
            clock.advanceSeconds(30);
            assertThat(sweeper.runOnce()).isEqualTo(1);
            assertThat(table.size()).isEqualTo(1);
            clock.advanceSeconds(60);
            assertThat(sweeper.runOnce()).isEqualTo(1);
            assertThat(table.size()).isZero();
            assertThat(events.log).containsSubsequence("remove 1 " + RemoveReason.EXPIRED, "remove 2 " + RemoveReason.EXPIRED);
        }
    }

    @Test
    void rejectsANonPositivePeriodAndASecondStart() {
        ManualClock clock = new ManualClock();
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000)) {
            assertThatThrownBy(() -> new StickyExpirySweeper(table, clock, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            try (StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofHours(1))) {
                sweeper.start();
                assertThatThrownBy(sweeper::start).isInstanceOf(IllegalStateException.class);
            }
        }
    }
}
