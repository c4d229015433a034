package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingTable;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bounded, lock-free, allocation-free queue of binding changes (a binding opened or refreshed,
 * or closed): many producers (the event loops and the binding ager, through the tables'
 * {@link BindingTable.ChangeListener}), one consumer (the replication event loop). The same
 * Vyukov scheme as {@link ChangeRing}: slot {@code i = pos & mask} belongs to the producer that
 * claimed {@code pos} while {@code seqs[i] == pos}, is published with {@code seqs[i] = pos + 1}
 * and freed by the consumer with {@code seqs[i] = head + capacity}, so the plain slot arrays are
 * ordered by the sequence writes.
 *
 * <p>A slot holds a reference to the binding, not its bytes: it is encoded when drained, so a
 * binding refreshed meanwhile goes out with its latest expiry, and a close carries only its key.
 */
final class BindingRing {
    static final byte OPEN = 1;
    static final byte CLOSE = 2;

    private final int mask;
    private final byte[] ops;
    private final BindingTable<?>[] tables;
    private final Binding[] bindings;
    private final long[] epochMicros;
    private final AtomicLongArray seqs;
    private final AtomicLong tail = new AtomicLong();
    /** Written by the consumer only; volatile so the backlog gauge can read it. */
    private volatile long head;

    /** Visits one change; references are cleared from the slot after the call. */
    interface Visitor {
        void change(byte op, BindingTable<?> table, Binding binding, long epochMicros);
    }

    BindingRing(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        ops = new byte[capacity];
        tables = new BindingTable<?>[capacity];
        bindings = new Binding[capacity];
        epochMicros = new long[capacity];
        seqs = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            seqs.set(i, i);
        }
    }

    /** Any thread. False if the ring is full (nothing queued). */
    boolean offer(byte op, BindingTable<?> table, Binding b, long micros) {
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
        ops[i] = op;
        tables[i] = table;
        bindings[i] = b;
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
            v.change(ops[i], tables[i], bindings[i], epochMicros[i]);
            tables[i] = null;
            bindings[i] = null;
            seqs.lazySet(i, h + mask + 1);
            h++;
            n++;
            head = h;
        }
        return n;
    }

    /** Consumer thread only. Drops everything queued (a resync covers it); returns how many. */
    int clear() {
        return drain((o, t, b, m) -> { }, Integer.MAX_VALUE);
    }

    long size() {
        return Math.max(0, tail.get() - head);
    }
}
