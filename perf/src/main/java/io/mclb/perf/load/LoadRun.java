package io.mclb.perf.load;

import java.time.Duration;

/**
 * What a command needs of a running generator to report on it: snapshots while it runs, the end,
 * and a measured window that starts after a warm-up in the same process (so the window does not
 * include the generator's own JIT compilation).
 *
 * @param <S> the generator's snapshot
 */
public interface LoadRun<S extends LoadProgress> extends AutoCloseable {
    /** Current counters; after the generator is closed, the final ones. Blocks at most a second. */
    default S snapshot() {
        return driver().snapshot();
    }

    /** True once sending has stopped (maxDuration or a stop) and nothing is outstanding. */
    default boolean isDone() {
        return driver().isDone();
    }

    /** The driver that runs the generator's flows. */
    LoadDriver<?, S> driver();

    /** See {@link LoadDriver#markAfter}. */
    default void markAfter(Duration after) {
        driver().markAfter(after);
    }

    /** See {@link LoadDriver#marked}. */
    default S marked() {
        return driver().marked();
    }

    /** Stops sending new requests; outstanding ones still settle. */
    default void stopSending() {
        driver().stopSending();
    }

    /** Stops and closes the sockets; the final counters stay available. Idempotent. */
    @Override
    default void close() {
        driver().close();
    }

    /** The counters of {@code later} less those of {@code base}; latencies, in-flight and sending as in {@code later}. */
    S since(S later, S base);
}
