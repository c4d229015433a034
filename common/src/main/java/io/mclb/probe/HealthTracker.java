package io.mclb.probe;

/**
 * Judgement of one probe's results on one real, separate from the I/O: {@code faildetect}
 * consecutive failures fail the real for this probe, the first success clears it. Reports
 * transitions only. Confined to the probe's loop; kept across reloads while the probe stays
 * attached to the real.
 */
final class HealthTracker {
    /** Result of {@link #record}. */
    enum Change { NONE, FAILED, RECOVERED }

    private int consecutiveFailures;
    private boolean failed;
    private boolean everPassed;

    Change record(boolean ok, int faildetect) {
        if (ok) {
            consecutiveFailures = 0;
            everPassed = true;
            if (failed) {
                failed = false;
                return Change.RECOVERED;
            }
            return Change.NONE;
        }
        consecutiveFailures++;
        if (!failed && consecutiveFailures >= faildetect) {
            failed = true;
            return Change.FAILED;
        }
        return Change.NONE;
    }

    /**
     * A confirmation check failed: the in-band failures that made the real suspect already count
     * as the evidence {@code faildetect} waits for, so this one failure fails it.
     */
    Change forceFail() {
        consecutiveFailures++;
        if (!failed) {
            failed = true;
            return Change.FAILED;
        }
        return Change.NONE;
    }

    boolean failed() {
        return failed;
    }

    boolean everPassed() {
        return everPassed;
    }

    int consecutiveFailures() {
        return consecutiveFailures;
    }
}
