package io.mclb.radius.lb;

/**
 * The judgement of one real's probes, without I/O: {@code faildetect} consecutive failures
 * fail it, one success recovers it (IOS probes: a single good answer puts a real back).
 * Confined to the prober's loop.
 */
final class ProbeJudge {
    private final int faildetect;
    private int consecutiveFailures;
    private boolean failed;

    ProbeJudge(int faildetect) {
        this.faildetect = Math.max(1, faildetect);
    }

    /**
     * Records one probe outcome.
     *
     * @return the new verdict when it changed (TRUE failed, FALSE recovered), else null
     */
    Boolean record(boolean ok) {
        if (ok) {
            consecutiveFailures = 0;
            if (failed) {
                failed = false;
                return Boolean.FALSE;
            }
            return null;
        }
        consecutiveFailures++;
        if (!failed && consecutiveFailures >= faildetect) {
            failed = true;
            return Boolean.TRUE;
        }
        return null;
    }

    boolean failed() {
        return failed;
    }
}
