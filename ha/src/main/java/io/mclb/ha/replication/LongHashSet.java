package io.mclb.ha.replication;

import java.util.Arrays;

/**
 * An open-addressing set of 64-bit key hashes, for the standby's snapshot bookkeeping (keys seen
 * in the snapshot, keys changed while it runs): 8 bytes per entry instead of a boxed key, since a
 * snapshot may carry tens of millions. Zero marks an empty slot, so the hash 0 is stored as 1;
 * two keys whose 64-bit hashes collide are treated as one (odds about n^2 / 2^65). Single thread.
 */
final class LongHashSet {
    private long[] slots = new long[1024];
    private int size;

    void add(long h) {
        if (h == 0) {
            h = 1;
        }
        if ((size + 1) * 4L > slots.length * 3L) {
            grow();
        }
        if (insert(slots, h)) {
            size++;
        }
    }

    boolean contains(long h) {
        if (h == 0) {
            h = 1;
        }
        int mask = slots.length - 1;
        for (int i = mix(h) & mask; ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == h) {
                return true;
            }
            if (s == 0) {
                return false;
            }
        }
    }

    int size() {
        return size;
    }

    void clear() {
        if (slots.length > 1024) {
            slots = new long[1024];
        } else {
            Arrays.fill(slots, 0);
        }
        size = 0;
    }

    private static boolean insert(long[] table, long h) {
        int mask = table.length - 1;
        for (int i = mix(h) & mask; ; i = (i + 1) & mask) {
            if (table[i] == h) {
                return false;
            }
            if (table[i] == 0) {
                table[i] = h;
                return true;
            }
        }
    }

    private void grow() {
        long[] bigger = new long[slots.length * 2];
        for (long s : slots) {
            if (s != 0) {
                insert(bigger, s);
            }
        }
        slots = bigger;
    }

    private static int mix(long h) {
        return (int) (h ^ (h >>> 32)) * 0x9e3779b9;
    }
}
