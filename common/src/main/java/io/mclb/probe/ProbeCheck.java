package io.mclb.probe;

/**
 * The I/O of one probe toward one real, confined to its {@link ProbeContext#loop()}. The
 * {@link ProbeScheduler} runs it once per interval and times it out; the check only sends, reads
 * and judges one answer. It never throws and never blocks: a target that never answers costs a
 * timeout, not a thread.
 */
public interface ProbeCheck extends AutoCloseable {

    /**
     * Starts one check and reports it through {@code result} at most once ({@link ProbeResult#pass}
     * or {@link ProbeResult#fail} with the reason, e.g. "expected status 200, got 503").
     */
    void run(ProbeResult result);

    /** Where the checks go, for {@code show probe}, e.g. {@code 10.0.0.1:80}; empty if the type does not say. */
    default String targetLabel() {
        return "";
    }

    /** The run in flight timed out: forget it, so a late answer reports nothing. */
    default void cancel() {
    }

    /** Releases sockets; called on the check's loop. */
    @Override
    void close();

    /** A check that cannot run (e.g. no port to check): every run fails with {@code reason}. */
    static ProbeCheck failing(String reason) {
        return new ProbeCheck() {
            @Override
            public void run(ProbeResult result) {
                result.fail(reason);
            }

            @Override
            public void close() {
            }
        };
    }
}
