package io.mclb.time;

/**
 * The only source of time for state machines and tables, so that tests drive them with a
 * {@link ManualClock} instead of sleeping.
 */
public interface NanoClock {
    /** Monotonic nanoseconds, for timers and ageing. */
    long nanoTime();

    /** Wall-clock milliseconds since the epoch, for persisted expiry times. */
    long epochMillis();

    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}
