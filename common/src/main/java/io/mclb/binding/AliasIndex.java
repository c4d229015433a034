package io.mclb.binding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@code long -> long} index (a binding's alias to its {@link BindingTable} key) in open
 * addressing over {@code long[]} only: keys and values interleaved, linear probing, backward-shift
 * deletion, so a removed key's slot is free again at once. This is what a renewal churns (a
 * returning subscriber's create brings a new TEID: one remove and one put): no tombstones, so a
 * table of a million aliases renewed forever keeps its size, and no reference is stored per
 * change, so the churn dirties no cards for G1 to refine. The binding itself is found through the
 * key in the table's own map, written only when a binding is opened or ends.
 *
 * <p>Concurrency: any thread writes ({@link BindingTable}'s contract: event loops open, renew and
 * close, the HA replication thread opens, the ager and purges close), any thread reads. The index
 * is split into {@value #SEGMENTS} segments by the key's hash; each has one word, {@link
 * Segment#seq}, that is both a writer's lock and a sequence lock for readers. A writer moves it
 * from even to odd by CAS (spinning only behind another writer of the same segment, who holds it
 * for one probe and, rarely, a resize), changes the arrays with plain stores and publishes with a
 * release store of the next even value. A reader takes no lock and writes nothing shared: it
 * reads the word (acquire), probes the array it read, then re-reads the word behind an acquire
 * fence and retries if it changed or was odd (the pattern of {@code StampedLock}'s optimistic
 * read). A reader can so be delayed by a writer of its segment but never sees a half-made entry;
 * a torn read only costs a retry, and a probe never runs past the length of the array it read.
 * Two event loops share a segment's word only while both change aliases hashed to it: 1 in
 * {@value #SEGMENTS} per pair of changes, each a few tens of nanoseconds.
 *
 * <p>A removal can be conditional on the caller's {@link Holder}: it is asked, under the segment's
 * lock, whether the entry still names a binding that holds the alias, so that a late removal by
 * a binding's old context never takes out the entry a newer binding of the same key made.
 */
final class AliasIndex {
    /** Asked under a segment's lock whether the entry {@code alias -> value} must stay. */
    interface Holder {
        boolean holds(long value, long alias);
    }

    static final int SEGMENTS = 64;
    private static final int SEGMENT_SHIFT = 64 - Integer.numberOfTrailingZeros(SEGMENTS);
    /** Slots per segment at first (a power of two); a segment doubles past {@link #MAX_LOAD_PERCENT}. */
    static final int INITIAL_SLOTS = 16;
    private static final int MAX_LOAD_PERCENT = 70;
    /** The key of an empty slot: alias 0 is never indexed ("no alias"). */
    private static final long EMPTY = 0;
    /** What {@link #get} returns for an alias not indexed; {@link BindingTable} keys are never 0. */
    static final long MISSING = 0;

    private final Segment[] segments = new Segment[SEGMENTS];
    private final Holder holder;

    AliasIndex(Holder holder) {
        this.holder = holder;
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment();
        }
    }

    private static long hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 31);
    }

    private Segment segment(long h) {
        return segments[(int) (h >>> SEGMENT_SHIFT)];
    }

    /** The value indexed under {@code key}, or {@link #MISSING}. Any thread; takes no lock. */
    long get(long key) {
        long h = hash(key);
        Segment s = segment(h);
        for (int spins = 0; ; spins++) {
            int seq = (int) Segment.SEQ.getAcquire(s);
            if ((seq & 1) == 0) {
                long v = s.probe(key, h);
                VarHandle.acquireFence();
                if (s.seq == seq) {
                    return v;
                }
            }
            backOff(spins);
        }
    }

    /** Indexes {@code value} (never {@link #MISSING}) under {@code key} (never 0); returns the value it replaced, or {@link #MISSING}. */
    long put(long key, long value) {
        long h = hash(key);
        Segment s = segment(h);
        int seq = s.lock();
        try {
            return s.put(key, value, h);
        } finally {
            s.unlock(seq);
        }
    }

    /**
     * Removes {@code key}'s entry if it is {@code value} and the {@link Holder} does not say it
     * must stay; true if it went.
     */
    boolean remove(long key, long value) {
        long h = hash(key);
        Segment s = segment(h);
        int seq = s.lock();
        try {
            int i = s.find(key, h);
            if (i < 0 || s.table[i + 1] != value || holder.holds(value, key)) {
                return false;
            }
            s.delete(i);
            return true;
        } finally {
            s.unlock(seq);
        }
    }

    /** Entries now (tests, show commands); sums the segments without locking them. */
    int size() {
        int n = 0;
        for (Segment s : segments) {
            n += s.size;
        }
        return n;
    }

    /** Slots allocated now, over all segments (tests: the index stays sized under churn). */
    int capacity() {
        int n = 0;
        for (Segment s : segments) {
            n += s.table.length / 2;
        }
        return n;
    }

    private static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the writer of this segment is off its core (two cores, shared)
        }
    }

    private static final class Segment {
        static final VarHandle SEQ;

        static {
            try {
                SEQ = MethodHandles.lookup().findVarHandle(Segment.class, "seq", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Even: no writer; odd: a writer holds the segment. Through {@link #SEQ} by writers; read by readers. */
        volatile int seq;
        /**
         * Slot {@code i} is {@code table[2i]} (key, {@link #EMPTY} if free) and {@code table[2i+1]}
         * (value). Written only by the writer holding {@link #seq}; replaced whole on a resize.
         */
        long[] table = new long[2 * INITIAL_SLOTS];
        /** Entries; written only under {@link #seq}. */
        int size;

        int lock() {
            for (int spins = 0; ; spins++) {
                int s = seq;
                if ((s & 1) == 0 && SEQ.compareAndSet(this, s, s + 1)) {
                    return s + 1;
                }
                backOff(spins);
            }
        }

        void unlock(int odd) {
            SEQ.setRelease(this, odd + 1);
        }

        /** A reader's probe of the array as it reads it: may see a writer's half-made change, which the caller discards. */
        long probe(long key, long h) {
            long[] t = table;
            int slots = t.length >> 1;
            int mask = slots - 1;
            for (int n = 0, i = (int) h & mask; n < slots; n++, i = (i + 1) & mask) {
                long k = t[2 * i];
                if (k == key) {
                    return t[2 * i + 1];
                }
                if (k == EMPTY) {
                    return MISSING;
                }
            }
            return MISSING;
        }

        /** The array index of {@code key}'s slot, or -1. Writer only. */
        int find(long key, long h) {
            long[] t = table;
            int mask = (t.length >> 1) - 1;
            for (int i = (int) h & mask; ; i = (i + 1) & mask) {
                long k = t[2 * i];
                if (k == key) {
                    return 2 * i;
                }
                if (k == EMPTY) {
                    return -1;
                }
            }
        }

        long put(long key, long value, long h) {
            long[] t = table;
            int mask = (t.length >> 1) - 1;
            for (int i = (int) h & mask; ; i = (i + 1) & mask) {
                long k = t[2 * i];
                if (k == key) {
                    long old = t[2 * i + 1];
                    t[2 * i + 1] = value;
                    return old;
                }
                if (k == EMPTY) {
                    t[2 * i + 1] = value;
                    t[2 * i] = key;
                    if (++size * 100 > (t.length >> 1) * MAX_LOAD_PERCENT) {
                        grow();
                    }
                    return MISSING;
                }
            }
        }

        /**
         * Empties the slot at array index {@code at} and shifts back the entries after it that
         * probed past it, so every key stays reachable from its home slot without a tombstone.
         */
        void delete(int at) {
            long[] t = table;
            int mask = (t.length >> 1) - 1;
            int hole = at >> 1;
            for (int j = (hole + 1) & mask; ; j = (j + 1) & mask) {
                long k = t[2 * j];
                if (k == EMPTY) {
                    break;
                }
                int home = (int) hash(k) & mask;
                // the entry at j stays if its home lies cyclically in (hole, j]
                boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
                if (!stays) {
                    t[2 * hole] = k;
                    t[2 * hole + 1] = t[2 * j + 1];
                    hole = j;
                }
            }
            t[2 * hole] = EMPTY;
            t[2 * hole + 1] = 0;
            size--;
        }

        private void grow() {
            long[] old = table;
            long[] t = new long[old.length * 2];
            int mask = (t.length >> 1) - 1;
            for (int i = 0; i < old.length; i += 2) {
                long k = old[i];
                if (k != EMPTY) {
                    int j = (int) hash(k) & mask;
                    while (t[2 * j] != EMPTY) {
                        j = (j + 1) & mask;
                    }
                    t[2 * j] = k;
                    t[2 * j + 1] = old[i + 1];
                }
            }
            table = t;
        }
    }
}
