package io.mclb.sticky;

import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Removes expired sticky entries on its own daemon thread, so the data path never sweeps
 * (lookups already treat expired entries as absent). The walk is spread out: every
 * {@code period / SLICES} one slice of the table's segments is swept, so the whole table is
 * covered once per {@code period} and ten million entries never cost one long burst of CPU next to
 * the event loops. An empty table is not walked at all. Removals are published with reason
 * {@link StickyChangeListener.RemoveReason#EXPIRED}.
 */
public final class StickyExpirySweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StickyExpirySweeper.class);
    static final int SLICES = 64;
    static final long CLOSE_WAIT_MS = 5_000;

    private final StickyTable table;
    private final NanoClock clock;
    private final Duration period;
    private ScheduledExecutorService executor;
    private int nextSlice;

    public StickyExpirySweeper(StickyTable table, NanoClock clock, Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("sweep period must be positive: " + period);
        }
        this.table = table;
        this.clock = clock;
        this.period = period;
    }

    /** Starts sweeping; the first sweep runs after one period. Not restartable after {@link #close()}. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("already started");
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mclb-sticky-sweeper");
            t.setDaemon(true);
            return t;
        });
        long tickMs = Math.max(1, period.toMillis() / SLICES);
        executor.scheduleWithFixedDelay(this::sweepSafely, tickMs, tickMs, TimeUnit.MILLISECONDS);
    }

    /** One sweep at the clock's current time; returns the entries removed. */
    public int runOnce() {
        return table.expire(clock.epochMillis());
    }

    /** One slice of the table at the clock's current time (the scheduled step). */
    int runSlice() {
        if (table.size() == 0) {
            return 0;
        }
        int slice = nextSlice;
        nextSlice = (nextSlice + 1) % SLICES;
        return table.expireSlice(clock.epochMillis(), slice, SLICES);
    }

    private void sweepSafely() {
        try {
            int removed = runSlice();
            if (removed > 0) {
                LOG.debug("expired {} sticky entries", removed);
            }
        } catch (RuntimeException e) {
            // an exception would cancel the schedule silently; keep sweeping
            LOG.warn("sticky expiry sweep failed", e);
        }
    }

    /**
     * Stops sweeping and waits (at most {@link #CLOSE_WAIT_MS}) for a slice under way to finish, so the
     * runtime can close the table next: {@code shutdownNow} alone returned while a walk was still
     * running, which then failed on the closed map ("sticky expiry sweep failed" at every stop under
     * load) after removing part of a segment. A slice is not interrupted: its listeners (the HA
     * replicator) see every removal it made.
     */
    @Override
    public void close() {
        ScheduledExecutorService e;
        synchronized (this) {
            e = executor;
        }
        if (e == null) {
            return;
        }
        e.shutdown(); // cancels the schedule; a running slice completes
        try {
            if (!e.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("sticky expiry sweep still running {} ms after close; interrupting it", CLOSE_WAIT_MS);
                e.shutdownNow();
            }
        } catch (InterruptedException ie) {
            e.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
