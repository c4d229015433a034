package io.mclb.select;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Who is choosing a real for a new subscriber right now, so that a subscriber whose first
 * requests arrive on two event loops at once (two source ports of one SGSN or NAS, hashed to
 * different listener sockets) takes exactly one predictor decision instead of one per loop, and
 * all its requests reach the same real.
 *
 * <p>A fixed table of slots indexed by a hash of the sticky key; a slot holds the key's hash while
 * one loop decides. Lock-free: a loop claims by CAS, and the claim is held only across one
 * predictor decision and one sticky-table write (microseconds, no I/O); a second loop that finds
 * its own subscriber's claim waits for that write (spinning, bounded by {@link #MAX_WAIT_NS}),
 * then reads the entry. Two subscribers whose hashes share a slot do not wait for each other: the
 * second goes ahead unclaimed and writes its entry only if it is still absent, so its requests
 * still meet on one real (at the cost of one extra predictor decision, for that rare pair).
 */
public final class SubscriberClaims {
    /**
     * Longest wait for another loop's decision. The decision takes microseconds, but the thread
     * holding it can be descheduled (on a 2-core host with a load of 15, for tens of ms). Past the wait the caller decides too and writes only if the
     * entry is still absent (the subscriber still meets on one real, but the predictor counted
     * two decisions). The wait only happens when two loops see one new subscriber at the same
     * instant, and lasts as long only when the host is that overloaded.
     */
    static final long MAX_WAIT_NS = 100_000_000;
    /** After this many busy spins the waiter sleeps briefly, so a descheduled holder gets a core. */
    private static final int SPINS = 1000;
    private static final long PARK_NS = 20_000;
    private static final int SLOTS = 4096;

    private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

    /** What {@link #claim} found. */
    enum Outcome {
        /** This caller holds the slot: decide, write, then {@link #release}. */
        CLAIMED,
        /** Another loop decided this subscriber meanwhile: read its entry. */
        WAITED,
        /** The slot is taken by another subscriber, or the wait timed out: decide, write only if absent. */
        UNCLAIMED
    }

    /** @param keyHash a non-zero hash of the sticky key */
    Outcome claim(long keyHash) {
        int slot = (int) (keyHash ^ (keyHash >>> 32)) & (SLOTS - 1);
        long holder;
        do {
            if (slots.compareAndSet(slot, 0, keyHash)) {
                return Outcome.CLAIMED;
            }
            // 0 here: the holder released between our CAS and this read; claim again rather than
            // take it for another subscriber (that would decide a second time)
            holder = slots.get(slot);
        } while (holder == 0);
        if (holder != keyHash) {
            return Outcome.UNCLAIMED;
        }
        long start = System.nanoTime();
        for (int spins = 0; slots.get(slot) == keyHash; spins++) {
            long waited = System.nanoTime() - start;
            if (waited > MAX_WAIT_NS) {
                return Outcome.UNCLAIMED;
            }
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NS); // sched_yield barely yields under CFS; a sleep does
            }
        }
        return Outcome.WAITED;
    }

    void release(long keyHash) {
        int slot = (int) (keyHash ^ (keyHash >>> 32)) & (SLOTS - 1);
        slots.compareAndSet(slot, keyHash, 0);
    }
}
