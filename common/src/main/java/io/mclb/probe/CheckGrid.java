package io.mclb.probe;

/**
 * Puts every probe check of a loop on a common time grid. Spread at random over the interval,
 * 2,000 reals at 1 s wake each event loop a thousand times a second for one datagram each; on a
 * {@value #SLOT_MS} ms grid the checks due in the same slot go out in one wake, and their answers
 * tend to come back in one. A check starts at most one slot later than asked, once: the tasks are
 * periodic at fixed rate, so they stay on the grid and every interval stays exact.
 */
final class CheckGrid {
    static final long SLOT_MS = 20;
    private static final long SLOT_NS = SLOT_MS * 1_000_000L;

    private CheckGrid() {
    }

    /** The delay from {@code nowNs} to the first grid point at least {@code delayMs} away. */
    static long delayNs(long nowNs, long delayMs) {
        long at = nowNs + delayMs * 1_000_000L;
        long aligned = Math.floorDiv(at + SLOT_NS - 1, SLOT_NS) * SLOT_NS;
        return aligned - nowNs;
    }
}
