package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingTable;


/**
 * A bounded, lock-free, allocation-free queue of binding changes (a binding opened or refreshed,
 * or closed): many producers (the event loops and the binding ager, through the tables'
 * {@link BindingTable.ChangeListener}), one consumer (the replication event loop), sequenced by
 * {@link RingSlots} like {@link ChangeRing}.
 *
 * <p>A slot holds a reference to the binding, not its bytes: it is encoded when drained, so a
 * binding refreshed meanwhile goes out with its latest expiry, and a close carries only its key.
 */
final class BindingRing {
    static final byte OPEN = 1;
    static final byte CLOSE = 2;

    private final RingSlots slots;
    private final byte[] ops;
    private final BindingTable<?>[] tables;
    private final Binding[] bindings;
    private final long[] epochMicros;

    /** Visits one change; references are cleared from the slot after the call. */
    interface Visitor {
        void change(byte op, BindingTable<?> table, Binding binding, long epochMicros);
    }

    BindingRing(int capacity) {
        slots = new RingSlots(capacity);
        ops = new byte[capacity];
        tables = new BindingTable<?>[capacity];
        bindings = new Binding[capacity];
        epochMicros = new long[capacity];
    }

    /** Any thread. False if the ring is full (nothing queued). */
    boolean offer(byte op, BindingTable<?> table, Binding b, long micros) {
        long pos = slots.claim();
        if (pos < 0) {
            return false;
        }
        int i = slots.index(pos);
        ops[i] = op;
        tables[i] = table;
        bindings[i] = b;
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
            v.change(ops[i], tables[i], bindings[i], epochMicros[i]);
            tables[i] = null;
            bindings[i] = null;
            slots.free(h);
            n++;
        }
        return n;
    }

    /** Consumer thread only. Drops everything queued (a resync covers it); returns how many. */
    int clear() {
        return drain((o, t, b, m) -> { }, Integer.MAX_VALUE);
    }

    long size() {
        return slots.size();
    }
}
