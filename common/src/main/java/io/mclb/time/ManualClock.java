package io.mclb.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to; shared by tests in every module. Thread-safe. */
public final class ManualClock implements NanoClock {
    private final AtomicLong nanos;
    private final long epochMillisAtZero;

    public ManualClock() {
        this(1_000_000_000L, 1_700_000_000_000L);
    }

    public ManualClock(long startNanos, long epochMillisAtStart) {
        this.nanos = new AtomicLong(startNanos);
        this.epochMillisAtZero = epochMillisAtStart - startNanos / 1_000_000L;
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long epochMillis() {
        return epochMillisAtZero + nanos.get() / 1_000_000L;
    }

    public void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    public void advanceSeconds(long s) {
        nanos.addAndGet(s * 1_000_000_000L);
    }

    public void advanceMillis(long ms) {
        nanos.addAndGet(ms * 1_000_000L);
    }
}
