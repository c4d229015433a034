package io.mclb.farm;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code rate N}: at most N new connections per one-second window of the monotonic clock, as one
 * packed (second &lt;&lt; 32 | count) long updated by CAS, so any loop may take a slot without a lock.
 */
final class RateWindow {
    private static final long NS_PER_S = 1_000_000_000L;
    private final AtomicLong window = new AtomicLong(-1L << 32);

    private static long second(long nowNs) {
        return Math.floorDiv(nowNs, NS_PER_S) & 0xffff_ffffL;
    }

    /** Whether a slot is left this second; no side effects. {@code rate <= 0} = unlimited. */
    boolean available(int rate, long nowNs) {
        if (rate <= 0) {
            return true;
        }
        long v = window.get();
        return (v >>> 32) != second(nowNs) || (int) v < rate;
    }

    /** Takes a slot of this second's window; false when the rate is used up. */
    boolean take(int rate, long nowNs) {
        if (rate <= 0) {
            return true;
        }
        long sec = second(nowNs);
        while (true) {
            long v = window.get();
            long next;
            if ((v >>> 32) != sec) {
                next = (sec << 32) | 1;
            } else if ((int) v >= rate) {
                return false;
            } else {
                next = v + 1;
            }
            if (window.compareAndSet(v, next)) {
                return true;
            }
        }
    }
}
