package io.mclb.ha.replication;

import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyValue;


/**
 * A bounded, lock-free, allocation-free queue of sticky changes: many producers (the event loops
 * and the sweeper, through the table's listener), one consumer (the replication event loop),
 * sequenced by {@link RingSlots}. A full ring refuses the change ({@link #offer} returns false);
 * the caller records that a resync is needed.
 *
 * <pre>
 * slot: | type (1) | key (20) | value (16) |   plus epochMicros[i]: when the change was made
 * </pre>
 */
final class ChangeRing {
    static final byte PUT = 1;
    static final byte REMOVE = 2;
    static final int SLOT = 1 + StickyKey.SIZE + StickyValue.SIZE;

    private final RingSlots slots;
    private final byte[] data;
    private final long[] epochMicros;

    /** Visits one change; the arrays are valid during the call only. */
    interface Visitor {
        void change(byte type, byte[] data, int keyOffset, int valueOffset, long epochMicros);
    }

    ChangeRing(int capacity) {
        slots = new RingSlots(capacity);
        data = new byte[capacity * SLOT];
        epochMicros = new long[capacity];
    }

    /** Any thread. Copies the change in; false if the ring is full (nothing written). */
    boolean offer(byte type, byte[] key, byte[] value, long micros) {
        long pos = slots.claim();
        if (pos < 0) {
            return false;
        }
        int i = slots.index(pos);
        int off = i * SLOT;
        data[off] = type;
        System.arraycopy(key, 0, data, off + 1, StickyKey.SIZE);
        if (value != null) {
            System.arraycopy(value, 0, data, off + 1 + StickyKey.SIZE, StickyValue.SIZE);
        }
        epochMicros[i] = micros;
        slots.publish(pos);
        return true;
    }

    /** Consumer thread only. Visits up to {@code max} changes in order; returns how many. */
    int drain(Visitor v, int max) {
        int n = 0;
        long h;
        while (n < max && (h = slots.next()) >= 0) {
            int i = slots.index(h);
            int off = i * SLOT;
            v.change(data[off], data, off + 1, off + 1 + StickyKey.SIZE, epochMicros[i]);
            slots.free(h);
            n++;
        }
        return n;
    }

    /** Consumer thread only. Drops everything queued (a resync will cover it); returns how many. */
    int clear() {
        return drain((t, d, k, val, m) -> { }, Integer.MAX_VALUE);
    }

    /** Changes queued now (approximate while producers run). */
    long size() {
        return slots.size();
    }
}
