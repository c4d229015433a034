package io.mclb.ha.replication;

import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyValue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bounded, lock-free, allocation-free queue of sticky changes: many producers (the event loops
 * and the sweeper, through the table's listener), one consumer (the replication event loop).
 * Dmitry Vyukov's bounded queue: each slot carries a sequence number that says whose turn it is.
 *
 * <p>Invariants: slot {@code i = pos & mask} may be written by the producer that claimed
 * {@code pos} (moved {@code tail} from {@code pos} to {@code pos + 1}) only while
 * {@code seqs[i] == pos}; it publishes with {@code seqs[i] = pos + 1} (release). The consumer
 * reads slot {@code head} only when {@code seqs[i] == head + 1} (acquire) and frees it with
 * {@code seqs[i] = head + capacity}. So slot contents are plain arrays, ordered by the sequence
 * writes. A full ring refuses the change ({@link #offer} returns false); the caller records that
 * a resync is needed.
 *
 * <pre>
 * slot: | type (1) | key (20) | value (16) |   plus epochMicros[i]: when the change was made
 * </pre>
 */
final class ChangeRing {
    static final byte PUT = 1;
    static final byte REMOVE = 2;
    static final int SLOT = 1 + StickyKey.SIZE + StickyValue.SIZE;

    private final int mask;
    private final byte[] data;
    private final long[] epochMicros;
    private final AtomicLongArray seqs;
    private final AtomicLong tail = new AtomicLong();
    /** Written by the consumer only; volatile so the backlog gauge can read it from any thread. */
    private volatile long head;

    /** Visits one change; the arrays are valid during the call only. */
    interface Visitor {
        void change(byte type, byte[] data, int keyOffset, int valueOffset, long epochMicros);
    }

    ChangeRing(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        data = new byte[capacity * SLOT];
        epochMicros = new long[capacity];
        seqs = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            seqs.set(i, i);
        }
    }

    /** Any thread. Copies the change in; false if the ring is full (nothing written). */
    boolean offer(byte type, byte[] key, byte[] value, long micros) {
        long pos = tail.get();
        while (true) {
            long dif = seqs.get((int) (pos & mask)) - pos;
            if (dif == 0) {
                if (tail.weakCompareAndSetVolatile(pos, pos + 1)) {
                    break;
                }
                pos = tail.get();
            } else if (dif < 0) {
                return false;
            } else {
                pos = tail.get();
            }
        }
        int i = (int) (pos & mask);
        int off = i * SLOT;
        data[off] = type;
        System.arraycopy(key, 0, data, off + 1, StickyKey.SIZE);
        if (value != null) {
            System.arraycopy(value, 0, data, off + 1 + StickyKey.SIZE, StickyValue.SIZE);
        }
        epochMicros[i] = micros;
        seqs.lazySet(i, pos + 1);
        return true;
    }

    /** Consumer thread only. Visits up to {@code max} changes in order; returns how many. */
    int drain(Visitor v, int max) {
        long h = head;
        int n = 0;
        while (n < max) {
            int i = (int) (h & mask);
            if (seqs.get(i) != h + 1) {
                break;
            }
            int off = i * SLOT;
            v.change(data[off], data, off + 1, off + 1 + StickyKey.SIZE, epochMicros[i]);
            seqs.lazySet(i, h + mask + 1);
            h++;
            n++;
            head = h;
        }
        return n;
    }

    /** Consumer thread only. Drops everything queued (a resync will cover it); returns how many. */
    int clear() {
        return drain((t, d, k, val, m) -> { }, Integer.MAX_VALUE);
    }

    /** Changes queued now (approximate while producers run). */
    long size() {
        return Math.max(0, tail.get() - head);
    }
}
