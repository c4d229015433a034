package io.mclb.probe;

import java.util.Arrays;

/**
 * The checks waiting on a shared probe socket, by a 16-bit number their request carries (an ICMP
 * sequence number, the low half of a SYN's sequence number): an answer finds its check by array
 * index, nothing allocated. Numbers are handed out round-robin, so a late answer to a number
 * just released rarely meets its successor. Confined to the socket's loop.
 *
 * @param <W> the waiting check
 */
final class CheckSlots<W> {
    static final int SIZE = 65536;
    private final Object[] bySlot = new Object[SIZE];
    private int next;

    /** A free number for {@code w}, or -1 when all {@value #SIZE} are taken. */
    int take(W w) {
        for (int i = 0; i < SIZE; i++) {
            int s = (next + i) & 0xffff;
            if (bySlot[s] == null) {
                bySlot[s] = w;
                next = (s + 1) & 0xffff;
                return s;
            }
        }
        return -1;
    }

    /** Who waits on {@code slot} (0..65535), or null. */
    @SuppressWarnings("unchecked")
    W get(int slot) {
        return (W) bySlot[slot];
    }

    /** Frees {@code slot} if {@code w} still holds it; whether it did. */
    boolean release(int slot, W w) {
        if (slot >= 0 && bySlot[slot] == w) {
            bySlot[slot] = null;
            return true;
        }
        return false;
    }

    void clear() {
        Arrays.fill(bySlot, null);
    }
}
