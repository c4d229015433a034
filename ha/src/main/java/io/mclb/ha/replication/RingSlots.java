package io.mclb.ha.replication;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The slot sequencing of a bounded many-producer, one-consumer ring (Dmitry Vyukov's bounded
 * queue), shared by {@link ChangeRing} and {@link BindingRing}, which keep the slot contents in
 * plain arrays of their own. Each slot carries a sequence number that says whose turn it is.
 *
 * <p>Invariants: slot {@code i = pos & mask} may be written by the producer that claimed
 * {@code pos} (moved {@code tail} from {@code pos} to {@code pos + 1}) only while
 * {@code seqs[i] == pos}; it publishes with {@code seqs[i] = pos + 1} (release). The consumer
 * reads slot {@code head} only when {@code seqs[i] == head + 1} (acquire) and frees it with
 * {@code seqs[i] = head + capacity}. So the plain slot arrays are ordered by the sequence writes.
 */
final class RingSlots {
    private final int mask;
    private final AtomicLongArray seqs;
    private final AtomicLong tail = new AtomicLong();
    /** Written by the consumer only; volatile so the backlog gauge can read it from any thread. */
    private volatile long head;

    RingSlots(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        seqs = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            seqs.set(i, i);
        }
    }

    /** Any thread: claims the next position, or -1 if the ring is full (nothing claimed). */
    long claim() {
        long pos = tail.get();
        while (true) {
            long dif = seqs.get(index(pos)) - pos;
            if (dif == 0) {
                if (tail.weakCompareAndSetVolatile(pos, pos + 1)) {
                    return pos;
                }
                pos = tail.get();
            } else if (dif < 0) {
                return -1;
            } else {
                pos = tail.get();
            }
        }
    }

    int index(long pos) {
        return (int) (pos & mask);
    }

    /** The claimer of {@code pos}: its slot is written. */
    void publish(long pos) {
        seqs.lazySet(index(pos), pos + 1);
    }

    /** Consumer: the position of the oldest published slot, or -1 if none is. */
    long next() {
        long h = head;
        return seqs.get(index(h)) == h + 1 ? h : -1;
    }

    /** Consumer: slot {@code h} (from {@link #next}) was read; it may be claimed again. */
    void free(long h) {
        seqs.lazySet(index(h), h + mask + 1);
        head = h + 1;
    }

    /** Positions claimed and not yet freed (approximate while producers run). */
    long size() {
        return Math.max(0, tail.get() - head);
    }
}
