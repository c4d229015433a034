package io.mclb.sticky;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which slices of the sticky table the expiry sweeper must walk: a slice is walked only once the
 * earliest expiry it can hold has come. That bound is the earliest expiry the slice kept at its last
 * walk, lowered by every write since (writers record the earliest expiry they wrote in one of two
 * per-round accumulators: the current sweep round's and the previous one's, which together cover
 * every write since any slice was last looked at). With hour-long timeouts the sweeper otherwise
 * walks every entry every period (Chronicle's iteration, 200-300 ns an entry) to find nothing.
 * Every {@link #FULL_EVERY}-th round walks every slice regardless, so a bound that was wrong (a
 * writer delayed across two rounds lands in a later accumulator) delays a removal by at most that
 * many periods; lookups treat expired entries as absent meanwhile.
 *
 * <p>Threads: {@link #written} from any writer (a volatile read, a CAS only when it lowers the
 * bound); {@link #due} and {@link #walked} from the sweeper's one thread.
 */
final class SweepBounds {
    /** A full walk every this many rounds (a minute at the runtime's 10 s period). */
    static final int FULL_EVERY = 6;
    private static final long UNKNOWN = Long.MIN_VALUE;

    private final AtomicLong[] writtenMin = {new AtomicLong(Long.MAX_VALUE), new AtomicLong(Long.MAX_VALUE)};
    private volatile int current;
    private long round = -1;
    private long[] keptMin = new long[0];
    private long walkedSlices;
    private long skippedSlices;

    /** A writer stored an entry expiring at {@code expiresEpochSeconds} (after the store). */
    void written(long expiresEpochSeconds) {
        AtomicLong m = writtenMin[current];
        long now;
        while (expiresEpochSeconds < (now = m.get()) && !m.compareAndSet(now, expiresEpochSeconds)) {
            // lowered by another writer meanwhile: try again against the new minimum
        }
    }

    /**
     * Whether slice {@code slice} of {@code slices} must be walked at {@code nowEpochSeconds}: an
     * entry expiring at or before it is expired. Slice 0 starts a new round.
     */
    boolean due(int slice, int slices, long nowEpochSeconds) {
        if (keptMin.length != slices) {
            keptMin = new long[slices];
            Arrays.fill(keptMin, UNKNOWN);
        }
        if (slice == 0) {
            round++;
            int next = (int) (round & 1);
            writtenMin[next].set(Long.MAX_VALUE); // held the writes of two rounds ago, all folded or walked since
            current = next;
        }
        long bound = Math.min(keptMin[slice], Math.min(writtenMin[0].get(), writtenMin[1].get()));
        if (round % FULL_EVERY == 0 || keptMin[slice] == UNKNOWN || bound <= nowEpochSeconds) {
            walkedSlices++;
            return true;
        }
        keptMin[slice] = bound; // the writes so far, folded in: the accumulators are reset in time
        skippedSlices++;
        return false;
    }

    /** The walk of {@code slice} kept entries expiring at {@code minKeptEpochSeconds} or later (MAX_VALUE: none). */
    void walked(int slice, long minKeptEpochSeconds) {
        keptMin[slice] = minKeptEpochSeconds;
    }

    long walkedSlices() {
        return walkedSlices;
    }

    long skippedSlices() {
        return skippedSlices;
    }
}
