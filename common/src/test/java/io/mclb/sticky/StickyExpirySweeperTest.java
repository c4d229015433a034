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
    void slicesCoverTheWholeTableOncePerPeriod() {
        ManualClock clock = new ManualClock(0, 1_700_000_000_000L);
        long nowS = clock.epochMillis() / 1000;
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000);
             StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofSeconds(10))) {
            assertThat(sweeper.runSlice()).as("an empty table is not walked").isZero();
            for (int i = 0; i < 500; i++) {
                table.put(ChronicleStickyTableTest.imsi(Integer.toString(100 + i)), new StickyValue().set(1, nowS, nowS + 5));
            }
            clock.advanceSeconds(6);
            int removed = 0;
            for (int i = 0; i < StickyExpirySweeper.SLICES; i++) {
                int n = sweeper.runSlice();
                assertThat(n).as("one slice takes a part, not the whole table").isLessThan(500);
                removed += n;
            }
            assertThat(removed).isEqualTo(500);
            assertThat(table.size()).isZero();
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
