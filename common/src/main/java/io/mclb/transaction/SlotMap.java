package io.mclb.transaction;

/**
 * A loop-confined map from a well-mixed {@code long} key to a transaction's slot number, open
 * addressing with linear probing over two primitive arrays, deletion by backward shift (no
 * tombstones, so churn never fills it).
 *
 * <p>Why not Netty's {@code LongObjectHashMap}: its values are references, and every put stored one
 * into a large old-generation array, a card the G1 post-write barrier dirties and its refinement
 * threads then scan (about two cards per request on the GTP path, perf/README "Issue 15"). Here a
 * put stores only an {@code int}. Keys are hashes already ({@link TransactionTable}), so the slot
 * index is their low bits.
 */
final class SlotMap {
    private static final int MIN_CAPACITY = 16;

    private long[] keys;
    /** slot + 1; 0 marks a free cell, so every key (0 included) can be stored */
    private int[] values;
    private int mask;
    private int size;

    SlotMap() {
        this(MIN_CAPACITY);
    }

    SlotMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(MIN_CAPACITY, expected * 2 - 1) * 2 - 1);
        keys = new long[cap];
        values = new int[cap];
        mask = cap - 1;
    }

    private static int spread(long key) {
        return (int) (key ^ (key >>> 32));
    }

    /** The slot stored for {@code key}, or -1. */
    int get(long key) {
        int i = spread(key) & mask;
        int v;
        while ((v = values[i]) != 0) {
            if (keys[i] == key) {
                return v - 1;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Stores {@code slot} for {@code key}; returns the slot it replaces, or -1. */
    int put(long key, int slot) {
        int i = spread(key) & mask;
        int v;
        while ((v = values[i]) != 0) {
            if (keys[i] == key) {
                values[i] = slot + 1;
                return v - 1;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = slot + 1;
        if (++size > (mask + 1) >>> 1) {
            resize((mask + 1) << 1);
        }
        return -1;
    }

    /** Removes {@code key} if it maps to {@code slot}; true if it did. */
    boolean remove(long key, int slot) {
        int i = spread(key) & mask;
        int v;
        while ((v = values[i]) != 0) {
            if (keys[i] == key) {
                if (v - 1 != slot) {
                    return false;
                }
                shiftBack(i);
                size--;
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    int size() {
        return size;
    }

    /** Closes the gap at {@code gap}: later entries of the same run whose home is at or before it move back. */
    private void shiftBack(int gap) {
        int i = gap;
        while (true) {
            i = (i + 1) & mask;
            if (values[i] == 0) {
                break;
            }
            int home = spread(keys[i]) & mask;
            // the entry at i may fill the gap unless its home lies cyclically in (gap, i]
            boolean homeAfterGap = gap <= i ? (home > gap && home <= i) : (home > gap || home <= i);
            if (!homeAfterGap) {
                keys[gap] = keys[i];
                values[gap] = values[i];
                gap = i;
            }
        }
        values[gap] = 0;
        keys[gap] = 0;
    }

    private void resize(int capacity) {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[capacity];
        values = new int[capacity];
        mask = capacity - 1;
        for (int j = 0; j < oldValues.length; j++) {
            if (oldValues[j] != 0) {
                int i = spread(oldKeys[j]) & mask;
                while (values[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
