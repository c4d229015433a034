package io.mclb.sticky;

import io.mclb.testing.TestStickyKinds;
import io.mclb.sticky.StickyChangeListener.RemoveReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChronicleStickyTableTest {
    private static final long NOW_MS = 1_700_000_000_000L;
    private static final long NOW_S = NOW_MS / 1000;

    @TempDir
    Path dir;
    private ChronicleStickyTable table;
    private final RecordingListener events = new RecordingListener();

    @BeforeEach
    void open() {
        table = StickyTables.open(dir, 10_000);
        table.addListener(events);
    }

    @AfterEach
    void close() {
        table.close();
    }

    static StickyKey imsi(String digits) {
        return new StickyKey().set(TestStickyKinds.GTP_IMSI, 1, digits.getBytes(StandardCharsets.US_ASCII));
    }

    static StickyValue value(long realId, long expiresS) {
        return new StickyValue().set(realId, NOW_S, expiresS);
    }

    @Test
    void putThenGetReturnsTheValueUntilItExpires() {
        table.put(imsi("262010000000001"), value(42, NOW_S + 60));
        StickyValue out = new StickyValue();

        assertThat(table.get(imsi("262010000000001"), out, NOW_MS)).isTrue();
        assertThat(out.realId()).isEqualTo(42);
        assertThat(out.expiresEpochSeconds()).isEqualTo(NOW_S + 60);
        assertThat(table.get(imsi("262010000000001"), out, (NOW_S + 59) * 1000 + 999)).isTrue();
        assertThat(table.get(imsi("262010000000001"), out, (NOW_S + 60) * 1000)).as("expired = absent").isFalse();
        assertThat(table.get(imsi("262010000000002"), out, NOW_MS)).isFalse();
    }

    /**
     * {@link StickyTable#version()} moves with every change that can make an earlier read wrong
     * (removals of each kind, re-pointing, an earlier expiry) and with nothing else (new keys,
     * later expiries of the same real): what lets an accepting answer skip a write.
     */
    @Test
    void theVersionMovesOnlyWithChangesThatInvalidateAnEarlierRead() {
        StickyKey a = imsi("262010000000001");
        long v0 = table.version();
        assertThat(v0).isGreaterThanOrEqualTo(0);
        table.put(a, value(42, NOW_S + 60));
        table.put(imsi("262010000000002"), value(43, NOW_S + 60));
        table.put(a, value(42, NOW_S + 61));
        assertThat(table.putIfAbsent(imsi("262010000000003"), value(44, NOW_S + 60), new StickyValue(), NOW_MS)).isTrue();
        assertThat(table.version()).as("new keys and a later expiry of the same real").isEqualTo(v0);

        table.put(a, value(42, NOW_S + 30));
        long v1 = table.version();
        assertThat(v1).as("an earlier expiry").isGreaterThan(v0);
        table.put(a, value(7, NOW_S + 60));
        long v2 = table.version();
        assertThat(v2).as("another real").isGreaterThan(v1);
        table.remove(a, RemoveReason.DELETED);
        long v3 = table.version();
        assertThat(v3).as("a removal").isGreaterThan(v2);
        assertThat(table.remove(a, RemoveReason.DELETED)).isFalse();
        assertThat(table.version()).as("removing nothing").isEqualTo(v3);
        table.removeIf((k, v) -> v.realId() == 43, RemoveReason.PURGED);
        long v4 = table.version();
        assertThat(v4).as("a purge").isGreaterThan(v3);
        assertThat(table.expire((NOW_S + 61) * 1000)).isEqualTo(1);
        assertThat(table.version()).as("an expiry sweep").isGreaterThan(v4);
    }

    @Test
    void aChangeUnderWayShowsAsNoVersion() {
        StickyVersion v = new StickyVersion();
        assertThat(v.current()).isZero();
        v.begin();
        v.begin();
        assertThat(v.current()).as("two changes under way").isEqualTo(-1);
        v.end();
        assertThat(v.current()).as("one still under way").isEqualTo(-1);
        v.end();
        assertThat(v.current()).isEqualTo(2);
        byte[] before = value(42, NOW_S + 60).bytes();
        assertThat(v.beginIfInvalidating(before, value(42, NOW_S + 60).bytes())).isFalse();
        assertThat(v.beginIfInvalidating(before, value(42, NOW_S + 90).bytes())).isFalse();
        assertThat(v.current()).isEqualTo(2);
        assertThat(v.beginIfInvalidating(before, value(41, NOW_S + 90).bytes())).isTrue();
        assertThat(v.current()).isEqualTo(-1);
        v.endIf(true);
        assertThat(v.current()).isEqualTo(3);
    }

    @Test
    void theRefreshSlackIsASixteenthOfTheTimeoutBetweenOneSecondAndAMinute() {
        assertThat(StickyRefresh.slackSeconds(3600)).isEqualTo(60);
        assertThat(StickyRefresh.slackSeconds(300)).isEqualTo(18);
        assertThat(StickyRefresh.slackSeconds(60)).isEqualTo(3);
        assertThat(StickyRefresh.slackSeconds(10)).isEqualTo(1);
        long stored = NOW_S + 3600;
        assertThat(StickyRefresh.current(stored, 3600, NOW_MS + 59_999)).isTrue();
        assertThat(StickyRefresh.current(stored, 3600, NOW_MS + 60_000)).isFalse();
        assertThat(StickyRefresh.due(stored, 3600, NOW_MS + 59_999)).isFalse();
        assertThat(StickyRefresh.due(stored, 3600, NOW_MS + 60_000)).isTrue();
        assertThat(StickyRefresh.current(stored, 60, NOW_MS)).as("a longer entry is not what a write would store")
                .isFalse();
        assertThat(StickyRefresh.due(stored, 60, NOW_MS)).as("an extension never shortens it").isFalse();
    }

    @Test
    void aFullTableRefusesAndCountsPutsInsteadOfThrowing(@TempDir Path small) {
        try (StickyTable t = StickyTables.open(small, 1000)) {
            int stored = 0;
            for (int i = 0; i < 20_000; i++) {
                if (t.put(imsi(String.valueOf(100_000 + i)), value(1, NOW_S + 60))) {
                    stored++;
                }
            }
            assertThat(stored).as("Chronicle takes more than the configured entries, up to its overflow tiers")
                    .isGreaterThanOrEqualTo(1000).isLessThan(20_000);
            assertThat(t.refusedFull()).isEqualTo(20_000 - stored);
            assertThat(t.size()).isEqualTo(stored);
            assertThat(t.size(TestStickyKinds.GTP_IMSI)).isEqualTo(stored);
            // what is stored still reads, updates and removes; a removal makes room again
            assertThat(t.get(imsi("100000"), new StickyValue(), NOW_MS)).isTrue();
            assertThat(t.put(imsi("100000"), value(2, NOW_S + 60))).isTrue();
            assertThat(t.remove(imsi("100000"), RemoveReason.DELETED)).isTrue();
            assertThat(t.put(imsi("100000"), value(3, NOW_S + 60))).isTrue();
        }
    }

    @Test
    void putOfAnExistingKeyReplacesItAndCountsOnce() {
        table.put(imsi("1"), value(1, NOW_S + 60));
        table.put(imsi("1"), value(2, NOW_S + 90));
        StickyValue out = new StickyValue();

        assertThat(table.get(imsi("1"), out, NOW_MS)).isTrue();
        assertThat(out.realId()).isEqualTo(2);
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(1);
        assertThat(events.log).containsExactly("put 1 prev=null", "put 2 prev=1");
    }

    @Test
    void removePublishesAndReportsPresence() {
        table.put(imsi("1"), value(7, NOW_S + 60));

        assertThat(table.remove(imsi("1"), RemoveReason.DELETED)).isTrue();
        assertThat(table.remove(imsi("1"), RemoveReason.DELETED)).isFalse();
        assertThat(table.get(imsi("1"), new StickyValue(), NOW_MS)).isFalse();
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isZero();
        assertThat(events.log).containsExactly("put 7 prev=null", "remove 7 DELETED");
    }

    @Test
    void countsArePerKind() {
        StickyKey ip = new StickyKey().setClientIp(0, new byte[] {10, 0, 0, 1}, 32);
        StickyKey user = new StickyKey().set(TestStickyKinds.RADIUS_USERNAME, 0, "alice".getBytes(StandardCharsets.US_ASCII));
        table.put(ip, value(1, NOW_S + 60));
        table.put(user, value(1, NOW_S + 60));
        table.put(imsi("1"), value(1, NOW_S + 60));
        table.put(imsi("2"), value(1, NOW_S + 60));
        table.remove(imsi("2"), RemoveReason.DELETED);

        assertThat(table.size()).isEqualTo(3);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(1);
        assertThat(table.size(StickyKind.CLIENT_IP)).isEqualTo(1);
        assertThat(table.size(TestStickyKinds.RADIUS_USERNAME)).isEqualTo(1);
        assertThat(table.size(TestStickyKinds.ASN_MSID)).isZero();
    }

    @Test
    void removeIfRemovesOnlySelectedEntriesAndPublishesEach() {
        for (int i = 0; i < 1000; i++) {
            table.put(imsi(Integer.toString(i)), value(i % 3, NOW_S + 60));
        }
        events.log.clear();

        int removed = table.removeIf((k, v) -> v.realId() == 0, RemoveReason.PURGED);

        assertThat(removed).isEqualTo(334);
        assertThat(table.size()).isEqualTo(666);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(666);
        assertThat(events.log).hasSize(334).allMatch(e -> e.equals("remove 0 PURGED"));
        assertThat(table.get(imsi("0"), new StickyValue(), NOW_MS)).isFalse();
        assertThat(table.get(imsi("1"), new StickyValue(), NOW_MS)).isTrue();
    }

    @Test
    void expireRemovesEntriesExpiredAtTheGivenTime() {
        table.put(imsi("old"), value(1, NOW_S + 10));
        table.put(imsi("new"), value(2, NOW_S + 100));

        assertThat(table.expire(NOW_MS)).isZero();
        assertThat(table.expire((NOW_S + 10) * 1000)).isEqualTo(1);

        assertThat(table.size()).isEqualTo(1);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(1);
        assertThat(events.log).endsWith("remove 1 EXPIRED");
    }

    @Test
    void forEachVisitsCopiesUntilTheVisitorStops() {
        for (int i = 0; i < 100; i++) {
            table.put(imsi(Integer.toString(i)), value(i, NOW_S + 60));
        }
        List<StickyKey> kept = new ArrayList<>();
        table.forEach((k, v) -> kept.add(k) || true);
        assertThat(kept).hasSize(100);
        assertThat(kept.stream().map(StickyKey::toString).distinct()).hasSize(100);

        int[] visits = {0};
        table.forEach((k, v) -> ++visits[0] < 5);
        assertThat(visits[0]).isEqualTo(5);
    }

    @Test
    void listenersMayUseTheTableAndCanBeRemoved() {
        StickyValue seen = new StickyValue();
        boolean[] found = {false};
        StickyChangeListener reader = new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                found[0] = table.get(new StickyKey().copyFrom(key), seen, NOW_MS);
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
            }
        };
        table.addListener(reader);
        table.put(imsi("1"), value(5, NOW_S + 60));
        assertThat(found[0]).isTrue();
        assertThat(seen.realId()).isEqualTo(5);

        table.removeListener(reader);
        table.removeListener(events);
        table.put(imsi("2"), value(6, NOW_S + 60));
        assertThat(seen.realId()).isEqualTo(5);
        assertThat(events.log).containsExactly("put 5 prev=null");
    }

    @Test
    void getAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        StickyKey key = imsi("262010000000001");
        table.put(key, value(9, NOW_S + 60));
        StickyValue out = new StickyValue();
        for (int i = 0; i < 100_000; i++) { // warm up: contexts are created per thread on first use
            table.get(key, out, NOW_MS);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        boolean hit = true;
        for (int i = 0; i < 10_000; i++) {
            hit &= table.get(key, out, NOW_MS);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;

        assertThat(hit).isTrue();
        // a few hundred bytes of measurement noise, far below one object per call
        assertThat(allocated).isLessThan(10_000);
    }

    @Test
    void putIfAbsentKeepsALiveEntryAndReplacesAnExpiredOne() {
        StickyValue existing = new StickyValue();
        assertThat(table.putIfAbsent(imsi("1"), value(1, NOW_S + 60), existing, NOW_MS)).isTrue();
        assertThat(table.putIfAbsent(imsi("1"), value(2, NOW_S + 60), existing, NOW_MS)).as("live: kept").isFalse();
        assertThat(existing.realId()).isEqualTo(1);
        assertThat(table.putIfAbsent(imsi("1"), value(3, NOW_S + 90), existing, (NOW_S + 60) * 1000))
                .as("expired but not yet swept: replaced").isTrue();
        StickyValue out = new StickyValue();
        assertThat(table.get(imsi("1"), out, (NOW_S + 60) * 1000)).isTrue();
        assertThat(out.realId()).isEqualTo(3);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(1);
        assertThat(events.log).containsExactly("put 1 prev=null", "put 3 prev=1");
    }

    /**
     * The learner's one query: a live entry of the same real is kept while current within the
     * refresh slack (60 s of 3,600), and written over once it lags by the slack, names another real,
     * outlives the timeout or has expired; a re-pointing moves {@link StickyTable#version()} as a put
     * would.
     */
    @Test
    void putUnlessCurrentKeepsOnlyACurrentEntryOfTheSameReal() {
        int seconds = 3600;
        StickyValue existing = new StickyValue();
        StickyValue out = new StickyValue();
        assertThat(table.putUnlessCurrent(imsi("1"), value(1, NOW_S + seconds), seconds, existing, NOW_MS))
                .as("absent: written").isTrue();

        long at = NOW_S + 59;
        assertThat(table.putUnlessCurrent(imsi("1"), value(1, at + seconds), seconds, existing, at * 1000))
                .as("same real, lagging 59 s: kept").isFalse();
        assertThat(existing.realId()).isEqualTo(1);
        assertThat(existing.expiresEpochSeconds()).isEqualTo(NOW_S + seconds);

        at = NOW_S + 60;
        assertThat(table.putUnlessCurrent(imsi("1"), value(1, at + seconds), seconds, existing, at * 1000))
                .as("same real, lagging by the slack: refreshed").isTrue();
        assertThat(table.get(imsi("1"), out, at * 1000)).isTrue();
        assertThat(out.expiresEpochSeconds()).isEqualTo(at + seconds);

        long v0 = table.version();
        assertThat(table.putUnlessCurrent(imsi("1"), value(2, at + seconds), seconds, existing, at * 1000))
                .as("another real: re-pointed").isTrue();
        assertThat(table.version()).as("a re-pointing invalidates earlier reads").isGreaterThan(v0);
        assertThat(table.get(imsi("1"), out, at * 1000)).isTrue();
        assertThat(out.realId()).isEqualTo(2);

        table.put(imsi("1"), value(2, at + 2 * seconds)); // written through a longer timeout
        assertThat(table.putUnlessCurrent(imsi("1"), value(2, at + seconds), seconds, existing, at * 1000))
                .as("outlives this timeout: shortened, as a put would").isTrue();
        assertThat(table.get(imsi("1"), out, at * 1000)).isTrue();
        assertThat(out.expiresEpochSeconds()).isEqualTo(at + seconds);

        long late = at + seconds;
        assertThat(table.putUnlessCurrent(imsi("1"), value(2, late + seconds), seconds, existing, late * 1000))
                .as("expired but not yet swept: replaced").isTrue();
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(1);
        assertThat(events.log).containsExactly("put 1 prev=null", "put 1 prev=1", "put 2 prev=1", "put 2 prev=2",
                "put 2 prev=2", "put 2 prev=2");
    }

    /**
     * Writes allocate nothing either, with a listener registered: the key and value go in through
     * per-thread views (two key objects used in turn, as a loop does), the previous value comes out
     * into a per-thread array, and the listeners are an array.
     */
    @Test
    void putPutIfAbsentPutUnlessCurrentAndRemoveAllocateNothing() {
        table.removeListener(events);
        long[] published = {0};
        table.addListener(new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                published[0] += previous == null ? 1 : 2;
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
                published[0] += 4;
            }
        });
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        StickyKey[] keys = {imsi("262010000000001"), imsi("262010000000002")};
        StickyValue v = value(9, NOW_S + 60);
        StickyValue existing = new StickyValue();
        for (int i = 0; i < 50_000; i++) { // warm up: contexts are created per thread on first use
            writes(keys[i & 1], v, existing);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 10_000; i++) {
            writes(keys[i & 1], v, existing);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;

        assertThat(published[0]).as("every write was published").isEqualTo(60_000L * 7);
        // a few hundred bytes of measurement noise, far below one object per call (50,000 calls)
        assertThat(allocated).isLessThan(10_000);
    }

    /** A put (new), a put (replacing), a putIfAbsent and a putUnlessCurrent that keep the live entry, a remove. */
    private void writes(StickyKey key, StickyValue v, StickyValue existing) {
        table.put(key, v);
        table.put(key, v);
        table.putIfAbsent(key, v, existing, NOW_MS);
        table.putUnlessCurrent(key, v, 60, existing, NOW_MS);
        table.remove(key, RemoveReason.DELETED);
    }

    @Test
    void entriesSurviveCloseAndReopenWithCounts() {
        for (int i = 0; i < 500; i++) {
            table.put(imsi(Integer.toString(i)), value(i, NOW_S + 60));
        }
        table.put(new StickyKey().setClientIp(0, new byte[] {10, 0, 0, 1}, 32), value(1, NOW_S + 60));
        table.close();
        assertThat(dir.resolve(StickyTables.DIRTY_MARKER)).doesNotExist();

        table = StickyTables.open(dir, 10_000);

        assertThat(table.size()).isEqualTo(501);
        assertThat(table.size(TestStickyKinds.GTP_IMSI)).isEqualTo(500);
        assertThat(table.size(StickyKind.CLIENT_IP)).isEqualTo(1);
        StickyValue out = new StickyValue();
        assertThat(table.get(imsi("321"), out, NOW_MS)).isTrue();
        assertThat(out.realId()).isEqualTo(321);
    }

    @Test
    void aSecondOpenOfTheSameDataDirectoryFails() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StickyTables.open(dir, 10_000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("data directory " + dir + " is in use by another mclb process (pid "
                        + ProcessHandle.current().pid() + ")");
        assertThat(dir.resolve(StickyTables.DIRTY_MARKER)).as("the failed open leaves the owner's marker").exists();
        table.put(imsi("1"), value(1, NOW_S + 60));
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void closeIsIdempotentAndReleasesTheDirectory() {
        table.close();
        table.close();
        table = StickyTables.open(dir, 10_000);
        assertThat(dir.resolve(StickyTables.DIRTY_MARKER)).exists();
    }

    /** Records events as "put REAL prev=REAL|null" and "remove REAL REASON". */
    static final class RecordingListener implements StickyChangeListener {
        final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void onPut(byte[] key, byte[] value, byte[] previous) {
            log.add("put " + real(value) + " prev=" + (previous == null ? "null" : real(previous)));
        }

        @Override
        public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
            log.add("remove " + real(value) + " " + reason);
        }

        private static long real(byte[] value) {
            return new StickyValue().copyFrom(value).realId();
        }
    }
}
