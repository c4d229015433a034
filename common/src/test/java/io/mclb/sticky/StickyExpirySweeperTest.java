package io.mclb.sticky;

import io.mclb.sticky.StickyChangeListener.RemoveReason;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
            fill(table, 500, nowS, 5);
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

    /** {@code n} IMSIs from 100 on real 1, written at {@code nowS} for {@code lifeS} seconds. */
    private static void fill(ChronicleStickyTable table, int n, long nowS, long lifeS) {
        for (int i = 0; i < n; i++) {
            table.put(ChronicleStickyTableTest.imsi(Integer.toString(100 + i)), new StickyValue().set(1, nowS, nowS + lifeS));
        }
    }

    /** One sweep round: every slice once, as the scheduled sweeper does over one period. */
    private static int round(StickyExpirySweeper sweeper) {
        int removed = 0;
        for (int i = 0; i < StickyExpirySweeper.SLICES; i++) {
            removed += sweeper.runSlice();
        }
        return removed;
    }

    @Test
    void slicesThatCannotHoldAnExpiredEntryAreNotWalkedUntilAFullRound() {
        ManualClock clock = new ManualClock(0, 1_700_000_000_000L);
        long nowS = clock.epochMillis() / 1000;
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000);
             StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofSeconds(10))) {
            fill(table, 500, nowS, 3600);
            assertThat(round(sweeper)).isZero();
            long[] first = table.sweptSlices();
            assertThat(first[0]).as("the first round walks every slice").isEqualTo(StickyExpirySweeper.SLICES);

            for (int r = 1; r < SweepBounds.FULL_EVERY; r++) {
                clock.advanceSeconds(10);
                assertThat(round(sweeper)).isZero();
            }
            long[] later = table.sweptSlices();
            assertThat(later[0]).as("nothing can expire for an hour: no slice walked").isEqualTo(first[0]);
            assertThat(later[1]).isEqualTo((long) (SweepBounds.FULL_EVERY - 1) * StickyExpirySweeper.SLICES);

            clock.advanceSeconds(10);
            round(sweeper);
            assertThat(table.sweptSlices()[0]).as("every FULL_EVERY-th round walks every slice")
                    .isEqualTo(first[0] + StickyExpirySweeper.SLICES);
            assertThat(table.size()).isEqualTo(500);
        }
    }

    @Test
    void anEntryWrittenWithAShortLifeAfterItsSliceWasSkippedIsStillSweptOnTime() {
        ManualClock clock = new ManualClock(0, 1_700_000_000_000L);
        long nowS = clock.epochMillis() / 1000;
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000);
             StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofSeconds(10))) {
            ChronicleStickyTableTest.RecordingListener events = new ChronicleStickyTableTest.RecordingListener();
            table.addListener(events);
            fill(table, 500, nowS, 3600);
            round(sweeper); // walks all (first round)
            clock.advanceSeconds(10);
            round(sweeper); // skips all
            long skipped = table.sweptSlices()[1];
            assertThat(skipped).isEqualTo(StickyExpirySweeper.SLICES);

            // mid-round: half the slices already skipped in this round, the entry may be in either half
            clock.advanceSeconds(10);
            for (int i = 0; i < StickyExpirySweeper.SLICES / 2; i++) {
                sweeper.runSlice();
            }
            long s = clock.epochMillis() / 1000;
            table.put(ChronicleStickyTableTest.imsi("999"), new StickyValue().set(2, s, s + 5));
            table.put(ChronicleStickyTableTest.imsi("100"), new StickyValue().set(3, s, s + 5)); // shortened
            for (int i = StickyExpirySweeper.SLICES / 2; i < StickyExpirySweeper.SLICES; i++) {
                sweeper.runSlice();
            }
            clock.advanceSeconds(6);
            assertThat(round(sweeper)).as("both swept in the round after they expired").isEqualTo(2);
            assertThat(table.size()).isEqualTo(499);
            assertThat(events.log).contains("remove 2 " + RemoveReason.EXPIRED, "remove 3 " + RemoveReason.EXPIRED);
        }
    }

    /** The runtime closes the table right after the sweeper: a slice still walking would fail on the closed map. */
    @Test
    void closeWaitsForTheSliceUnderWayAndDoesNotInterruptItsListeners() throws Exception {
        ManualClock clock = new ManualClock(0, 1_700_000_000_000L);
        long nowS = clock.epochMillis() / 1000;
        try (ChronicleStickyTable table = StickyTables.open(dir, 10_000)) {
            fill(table, 200, nowS, 5);
            clock.advanceSeconds(6);
            CountDownLatch inListener = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            AtomicBoolean listenerDone = new AtomicBoolean();
            table.addListener(new StickyChangeListener() {
                @Override
                public void onPut(byte[] key, byte[] value, byte[] previous) {
                }

                @Override
                public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
                    if (inListener.getCount() == 0) {
                        return;
                    }
                    inListener.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    }
                    listenerDone.set(true);
                }
            });
            StickyExpirySweeper sweeper = new StickyExpirySweeper(table, clock, Duration.ofMillis(64));
            sweeper.start();
            assertThat(inListener.await(30, TimeUnit.SECONDS)).as("a slice removed an expired entry").isTrue();

            AtomicReference<Boolean> doneWhenClosed = new AtomicReference<>();
            Thread closer = new Thread(() -> {
                sweeper.close();
                doneWhenClosed.set(listenerDone.get());
            });
            closer.start();
            // close() is either waiting for the slice (the fix) or has already returned (it did not wait)
            await().atMost(Duration.ofSeconds(30)).until(() -> closer.getState() == Thread.State.TIMED_WAITING
                    || closer.getState() == Thread.State.TERMINATED);
            release.countDown();
            closer.join(30_000);

            assertThat(doneWhenClosed.get()).as("close() returned only after the slice under way had finished").isTrue();
            assertThat(interrupted).as("the slice's listener was not interrupted").isFalse();
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
