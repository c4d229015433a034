package io.mclb.perf.gtp.sim;

import java.util.Arrays;

/**
 * Open-addressing {@code long -> long} map (linear probing, backward-shift deletion) so the
 * simulator's session tables hold millions of entries without boxing. Key 0 is kept aside in a
 * flag because 0 marks an empty slot. Not thread-safe: one owner thread.
 */
final class LongLongMap {
    /** Returned by {@link #get} and {@link #remove} for an absent key. */
    static final long MISSING = Long.MIN_VALUE;

    private long[] keys;
    private long[] values;
    private int mask;
    private int size;
    private boolean hasZero;
    private long zeroValue;

    LongLongMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new long[cap];
        mask = cap - 1;
    }

    int size() {
        return size + (hasZero ? 1 : 0);
    }

    long get(long key) {
        if (key == 0) {
            return hasZero ? zeroValue : MISSING;
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == 0) {
                return MISSING;
            }
        }
    }

    /** Puts and returns the previous value or {@link #MISSING}. */
    long put(long key, long value) {
        if (key == 0) {
            long old = hasZero ? zeroValue : MISSING;
            hasZero = true;
            zeroValue = value;
            return old;
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                long old = values[i];
                values[i] = value;
                return old;
            }
            if (k == 0) {
                keys[i] = key;
                values[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return MISSING;
            }
        }
    }

    long remove(long key) {
        if (key == 0) {
            long old = hasZero ? zeroValue : MISSING;
            hasZero = false;
            return old;
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == 0) {
                return MISSING;
            }
            if (k == key) {
                long old = values[i];
                shiftBack(i);
                size--;
                return old;
            }
        }
    }

    void clear() {
        Arrays.fill(keys, 0);
        size = 0;
        hasZero = false;
    }

    /** Backward-shift deletion: keeps every probe chain gap-free without tombstones. */
    private void shiftBack(int gap) {
        int i = gap;
        while (true) {
            i = (i + 1) & mask;
            long k = keys[i];
            if (k == 0) {
                break;
            }
            int home = slot(k);
            // Move k into the gap unless its home lies cyclically in (gap, i].
            if (((i - home) & mask) >= ((i - gap) & mask)) {
                keys[gap] = k;
                values[gap] = values[i];
                gap = i;
            }
        }
        keys[gap] = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        mask = keys.length - 1;
        size = 0;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                put(oldKeys[j], oldValues[j]);
            }
        }
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
