package io.mclb.ha.replication;

/**
 * Wall-clock microseconds without allocating: {@code System.nanoTime()} offset by one reading of
 * {@code Instant.now()} taken when the class loads. Frame timestamps use it so the standby can
 * compute replication lag (exact when both nodes share a host, as in tests and the benchmark;
 * across hosts it is as good as their NTP).
 */
final class EpochClock {
    private static final long BASE_MICROS;
    private static final long BASE_NANOS;

    static {
        java.time.Instant now = java.time.Instant.now();
        BASE_NANOS = System.nanoTime();
        BASE_MICROS = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private EpochClock() {
    }

    static long nowMicros() {
        return BASE_MICROS + (System.nanoTime() - BASE_NANOS) / 1000;
    }
}
