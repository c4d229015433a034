package io.mclb.sticky;

import io.mclb.sticky.StickyChangeListener.RemoveReason;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;
import net.openhft.chronicle.map.MapSegmentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiPredicate;

/**
 * The sticky table on a persisted Chronicle Map of 20-byte keys ({@link StickyKey}) to 16-byte
 * values ({@link StickyValue}). Open one with {@link StickyTables#open}, which also guards the
 * data directory and recovers after a crash.
 *
 * <p>Thread-safe: every operation is one atomic Chronicle Map operation on one key (its segment
 * lock), except the whole-table walks, which go segment by segment and are therefore not a
 * snapshot of the whole table.
 *
 * <p>Invariant: {@code counts[code]} equals the number of stored keys whose first byte is
 * {@code code}. It is set by one scan when opened and then moved only by a put that found no
 * previous value (+1) or a removal that found one (-1); Chronicle returns the previous value
 * atomically with the change, so concurrent puts and removes of one key keep it exact.
 *
 * <p>{@link #version()}: a change that can make an earlier read wrong (a removal, a write naming
 * another real or an earlier expiry) is bracketed by {@link StickyVersion#begin} under its segment's
 * update lock, before the entry changes, and {@link StickyVersion#end} once it has.
 *
 * <p>Listeners are called on the thread that made the change, after the change, outside any
 * segment lock (so they may read the table; they must not write it: the previous value they are
 * given is that thread's scratch array, which a nested write would overwrite).
 *
 * <p>Allocation: none per get, put, putIfAbsent or remove; the keys and values go through
 * per-thread {@link ArrayData} views ({@link Scratch}) into Chronicle's per-thread query context.
 */
public final class ChronicleStickyTable implements StickyTable {
    private static final int KIND_CODES = 256;

    private final ChronicleMap<byte[], byte[]> map;
    private final LongAdder[] counts = new LongAdder[KIND_CODES];
    /** Copy on write, read as a plain array: publishing a write iterates without an iterator object. */
    private volatile StickyChangeListener[] listeners = new StickyChangeListener[0];
    private final Runnable afterClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LongAdder refusedFull = new LongAdder();
    /** What the sweeper may skip: every write lowers it to the expiry written. */
    private final SweepBounds sweep = new SweepBounds();
    /** {@link #version()}: moved only by removals and re-pointings (rare), read by every sticky request. */
    private final StickyVersion version = new StickyVersion();
    private final long capacity;
    /** At most one "table full" warning per interval: the condition lasts, the log must not flood. */
    private final AtomicLong lastFullLogMs = new AtomicLong(Long.MIN_VALUE / 2);
    private static final long FULL_LOG_INTERVAL_MS = 10_000;
    /** {@link #putUnless}'s {@code currentFor} for {@link #putIfAbsent}: every live entry is kept. */
    private static final int ANY_LIVE = -1;
    private static final Logger LOG = LoggerFactory.getLogger(ChronicleStickyTable.class);

    /**
     * @param map        an open map of {@link StickyKey#SIZE}-byte keys to {@link StickyValue#SIZE}-byte values
     * @param capacity   entries the map was created for
     * @param afterClose run once after the map is closed (marker removal, lock release)
     */
    ChronicleStickyTable(ChronicleMap<byte[], byte[]> map, long capacity, Runnable afterClose) {
        this.map = map;
        this.capacity = capacity;
        this.afterClose = afterClose;
        for (int i = 0; i < KIND_CODES; i++) {
            counts[i] = new LongAdder();
        }
        countExisting();
    }

    private void countExisting() {
        for (int s = 0; s < map.segments(); s++) {
            try (MapSegmentContext<byte[], byte[], ?> c = map.segmentContext(s)) {
                c.forEachSegmentEntry(e -> {
                    Data<byte[]> k = e.key();
                    adjust(k.bytes().readByte(k.offset()), 1);
                });
            }
        }
    }

    /**
     * Allocates nothing: the query context is Chronicle's per-thread reusable one, the key is this
     * thread's {@link Scratch} view and the value is copied into {@code out.bytes()} under the
     * segment's read lock. ({@code getUsing(byte[], byte[])} wraps the key array in a new
     * reference-counted {@code HeapBytesStore} on every call: about 190 bytes per lookup.)
     */
    @Override
    public boolean get(StickyKey key, StickyValue out, long nowEpochMillis) {
        Scratch s = SCRATCH.get();
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(s.key(key))) {
            MapEntry<byte[], byte[]> entry = c.entry();
            if (entry == null) {
                return false;
            }
            read(entry.value(), out.bytes());
        }
        return !out.expiredAt(nowEpochMillis);
    }

    /**
     * {@inheritDoc} Listeners get {@code previous} as stored, even if it had expired unswept. Allocates
     * nothing: the key and value go in through this thread's {@link Scratch}, the previous value comes
     * out into it (what {@code ChronicleMap.put(byte[], byte[])} does with two new wrappers and a new
     * array per call), under the segment's update lock as Chronicle's own {@code put}.
     */
    @Override
    public boolean put(StickyKey key, StickyValue value) {
        Scratch s = SCRATCH.get();
        boolean replaced;
        boolean invalidating = false;
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(s.key(key))) {
            c.updateLock().lock();
            MapEntry<byte[], byte[]> entry = c.entry();
            Data<byte[]> v = s.value(value);
            replaced = entry != null;
            if (replaced) {
                read(entry.value(), s.previous);
                invalidating = version.beginIfInvalidating(s.previous, value.bytes());
                c.replaceValue(entry, v);
            } else {
                c.insert(c.absentEntry(), v);
            }
        } catch (IllegalStateException e) {
            refused(e);
            return false;
        } finally {
            version.endIf(invalidating);
        }
        written(key, value, replaced ? s.previous : null);
        return true;
    }

    @Override
    public long version() {
        return version.current();
    }

    /**
     * Chronicle sizes segments for the configured entries and then allows a bounded number of
     * overflow tiers; past those a segment cannot take another key.
     */
    private void refused(IllegalStateException e) {
        refusedFull.increment();
        long now = System.currentTimeMillis();
        long last = lastFullLogMs.get();
        if (now - last >= FULL_LOG_INTERVAL_MS && lastFullLogMs.compareAndSet(last, now)) {
            LOG.warn("sticky table full at {} entries ({} puts refused so far; those requests are balanced "
                    + "without stickiness): raise 'mclb sticky entries' and recreate sticky.dat. Chronicle: {}",
                    map.longSize(), refusedFull.sum(), e.getMessage());
        }
    }

    /** Counts a new key and publishes the write (after the change, outside the segment lock). */
    private void written(StickyKey key, StickyValue value, byte[] previous) {
        if (previous == null) {
            adjust(key.bytes()[0], 1);
        }
        sweep.written(value.expiresEpochSeconds());
        for (StickyChangeListener l : listeners) {
            l.onPut(key.bytes(), value.bytes(), previous);
        }
    }

    /** {@inheritDoc} One update-locked query: the expired entry is replaced under the same lock that read it. */
    @Override
    public boolean putIfAbsent(StickyKey key, StickyValue value, StickyValue existing, long nowEpochMillis) {
        return putUnless(key, value, ANY_LIVE, existing, nowEpochMillis);
    }

    /** {@inheritDoc} One update-locked query, as {@link #putIfAbsent}. */
    @Override
    public boolean putUnlessCurrent(StickyKey key, StickyValue value, int stickySeconds, StickyValue existing,
            long nowEpochMillis) {
        return putUnless(key, value, stickySeconds, existing, nowEpochMillis);
    }

    /**
     * Writes {@code value} unless a live entry is there and is kept: always ({@code currentFor}
     * {@link #ANY_LIVE}), or while it names the same real and is current for a write of
     * {@code currentFor} seconds.
     */
    private boolean putUnless(StickyKey key, StickyValue value, int currentFor, StickyValue existing,
            long nowEpochMillis) {
        Scratch s = SCRATCH.get();
        boolean replaced;
        boolean invalidating = false;
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(s.key(key))) {
            c.updateLock().lock();
            MapEntry<byte[], byte[]> entry = c.entry();
            replaced = entry != null;
            if (replaced) {
                read(entry.value(), existing.bytes());
                if (!existing.expiredAt(nowEpochMillis) && (currentFor == ANY_LIVE
                        || existing.realId() == value.realId()
                        && StickyRefresh.current(existing.expiresEpochSeconds(), currentFor, nowEpochMillis))) {
                    return false;
                }
                System.arraycopy(existing.bytes(), 0, s.previous, 0, StickyValue.SIZE);
            }
            Data<byte[]> v = s.value(value);
            if (replaced) {
                invalidating = version.beginIfInvalidating(s.previous, value.bytes());
                c.replaceValue(entry, v);
            } else {
                c.insert(c.absentEntry(), v);
            }
        } catch (IllegalStateException e) {
            refused(e);
            existing.set(0, 0, 0);
            return false;
        } finally {
            version.endIf(invalidating);
        }
        written(key, value, replaced ? s.previous : null);
        return true;
    }

    @Override
    public long refusedFull() {
        return refusedFull.sum();
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public boolean remove(StickyKey key, RemoveReason reason) {
        Scratch s = SCRATCH.get();
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(s.key(key))) {
            c.updateLock().lock();
            MapEntry<byte[], byte[]> entry = c.entry();
            if (entry == null) {
                return false;
            }
            read(entry.value(), s.previous);
            version.begin();
            try {
                c.remove(entry);
            } finally {
                version.end();
            }
        }
        adjust(key.bytes()[0], -1);
        for (StickyChangeListener l : listeners) {
            l.onRemove(key.bytes(), s.previous, reason);
        }
        return true;
    }

    /**
     * {@inheritDoc} The predicate runs under a segment lock: it must be quick and must not call
     * this table; the key and value it sees are reused between calls (copy what you keep).
     */
    @Override
    public int removeIf(BiPredicate<StickyKey, StickyValue> which, RemoveReason reason) {
        return removeIf(which, reason, 0, 1);
    }

    /**
     * {@inheritDoc} A slice that cannot hold an expired entry yet ({@link SweepBounds}) is not walked;
     * a walk records the earliest expiry it kept.
     */
    @Override
    public int expireSlice(long nowEpochMillis, int slice, int slices) {
        if (!sweep.due(slice, slices, Math.floorDiv(nowEpochMillis, 1000L))) {
            return 0;
        }
        long[] minKept = {Long.MAX_VALUE};
        int removed = removeIf((k, v) -> {
            if (v.expiredAt(nowEpochMillis)) {
                return true;
            }
            minKept[0] = Math.min(minKept[0], v.expiresEpochSeconds());
            return false;
        }, RemoveReason.EXPIRED, slice, slices);
        sweep.walked(slice, minKept[0]);
        return removed;
    }

    /** Slices the sweeper walked and skipped so far (tests). */
    long[] sweptSlices() {
        return new long[] {sweep.walkedSlices(), sweep.skippedSlices()};
    }

    /** Walks the segments {@code s} with {@code s % slices == slice}. */
    private int removeIf(BiPredicate<StickyKey, StickyValue> which, RemoveReason reason, int slice, int slices) {
        StickyKey k = new StickyKey();
        StickyValue v = new StickyValue();
        List<byte[]> removed = new ArrayList<>();
        int total = 0;
        boolean[] begun = new boolean[1];
        for (int s = slice; s < map.segments(); s += slices) {
            removed.clear();
            begun[0] = false;
            try (MapSegmentContext<byte[], byte[], ?> c = map.segmentContext(s)) {
                c.forEachSegmentEntry(e -> {
                    read(e.key(), k.bytes());
                    read(e.value(), v.bytes());
                    if (which.test(k, v)) {
                        if (!begun[0]) {
                            version.begin(); // once per segment, before its first removal
                            begun[0] = true;
                        }
                        e.doRemove();
                        removed.add(k.bytes().clone());
                        removed.add(v.bytes().clone());
                    }
                });
            } finally {
                version.endIf(begun[0]);
            }
            // published after the segment lock is released, so listeners may use the table
            for (int i = 0; i < removed.size(); i += 2) {
                byte[] key = removed.get(i);
                adjust(key[0], -1);
                for (StickyChangeListener l : listeners) {
                    l.onRemove(key, removed.get(i + 1), reason);
                }
            }
            total += removed.size() / 2;
        }
        return total;
    }

    @Override
    public int expire(long nowEpochMillis) {
        return removeIf((k, v) -> v.expiredAt(nowEpochMillis), RemoveReason.EXPIRED);
    }

    /** {@inheritDoc} Copies one segment at a time, then visits it outside the lock. */
    @Override
    public void forEach(BiPredicate<StickyKey, StickyValue> visitor) {
        List<StickyKey> keys = new ArrayList<>();
        List<StickyValue> values = new ArrayList<>();
        for (int s = 0; s < map.segments(); s++) {
            keys.clear();
            values.clear();
            try (MapSegmentContext<byte[], byte[], ?> c = map.segmentContext(s)) {
                c.forEachSegmentEntry(e -> {
                    StickyKey k = new StickyKey();
                    StickyValue v = new StickyValue();
                    read(e.key(), k.bytes());
                    read(e.value(), v.bytes());
                    keys.add(k);
                    values.add(v);
                });
            }
            for (int i = 0; i < keys.size(); i++) {
                if (!visitor.test(keys.get(i), values.get(i))) {
                    return;
                }
            }
        }
    }

    @Override
    public long size() {
        return map.longSize();
    }

    @Override
    public long size(StickyKind kind) {
        return counts[kind.code()].sum();
    }

    @Override
    public synchronized void addListener(StickyChangeListener listener) {
        StickyChangeListener[] now = Arrays.copyOf(listeners, listeners.length + 1);
        now[now.length - 1] = listener;
        listeners = now;
    }

    @Override
    public synchronized void removeListener(StickyChangeListener listener) {
        List<StickyChangeListener> now = new ArrayList<>(Arrays.asList(listeners));
        now.remove(listener);
        listeners = now.toArray(new StickyChangeListener[0]);
    }

    /** Off-heap bytes Chronicle has in use (for reports, not a resident-memory figure). */
    public long offHeapMemoryUsed() {
        return map.offHeapMemoryUsed();
    }

    /** Idempotent. Closes the map (its data is in the mapped file) and then releases the data directory. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                map.close();
            } finally {
                afterClose.run();
            }
        }
    }

    private void adjust(int code, int delta) {
        counts[code & 0xff].add(delta);
    }

    /**
     * Each thread's key and value views and previous-value array: every query copies the caller's
     * 20 octets into the key view, every write its 16 into the value view, which Chronicle writes
     * to the segment from there (a loop uses several {@link StickyKey}s, the request's, the
     * inspector's, the learner's, so a view of the caller's own array would be re-pointed each time
     * it switches). Used within one call; listeners may read the table (a nested {@link #get}
     * touches only the key), they must not write it.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        private final ArrayData key = new ArrayData(StickyKey.SIZE);
        private final ArrayData value = new ArrayData(StickyValue.SIZE);
        /** The value a put replaced or a remove took, handed to listeners (valid during their call). */
        final byte[] previous = new byte[StickyValue.SIZE];

        ArrayData key(StickyKey k) {
            return key.copyFrom(k.bytes());
        }

        ArrayData value(StickyValue v) {
            return value.copyFrom(v.bytes());
        }
    }

    private static void read(Data<byte[]> data, byte[] into) {
        data.bytes().read(data.offset(), into, 0, into.length);
    }
}
