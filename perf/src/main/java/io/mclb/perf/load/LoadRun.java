package io.mclb.perf.load;

import java.time.Duration;

/**
 * What a command needs of a running generator to report on it: snapshots while it runs, the end,
 * and a measured window that starts after a warm-up in the same process (so the window does not
 * include the generator's own JIT compilation).
 *
 * @param <S> the generator's snapshot
 */
public interface LoadRun<S extends LoadProgress> {
    /** Current counters; blocks at most a second. */
    S snapshot();

    /** True once sending has stopped and nothing is outstanding. */
    boolean isDone();

    /** See {@link LoadDriver#markAfter}. */
    void markAfter(Duration after);

    /** See {@link LoadDriver#marked}. */
    S marked();

    /** The counters of {@code later} less those of {@code base}; latencies, in-flight and sending as in {@code later}. */
    S since(S later, S base);
}
