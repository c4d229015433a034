package io.mclb.sticky;

import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Removes expired sticky entries every {@code period} on its own daemon thread, so the data path
 * never sweeps (lookups already treat expired entries as absent). Removals are published with
 * reason {@link StickyChangeListener.RemoveReason#EXPIRED}.
 */
public final class StickyExpirySweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StickyExpirySweeper.class);

    private final StickyTable table;
    private final NanoClock clock;
    private final Duration period;
    private ScheduledExecutorService executor;

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
        long ms = period.toMillis();
        executor.scheduleWithFixedDelay(this::sweepSafely, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** One sweep at the clock's current time; returns the entries removed. */
    public int runOnce() {
        return table.expire(clock.epochMillis());
    }

    private void sweepSafely() {
        try {
            int removed = runOnce();
            if (removed > 0) {
                LOG.debug("expired {} sticky entries", removed);
            }
        } catch (RuntimeException e) {
            // an exception would cancel the schedule silently; keep sweeping
            LOG.warn("sticky expiry sweep failed", e);
        }
    }

    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
