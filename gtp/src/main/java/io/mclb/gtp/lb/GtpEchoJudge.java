package io.mclb.gtp.lb;

/**
 * Judgement of one GGSN's echo answers, separate from the I/O ({@link GtpEchoProber} feeds it):
 * {@code faildetect} consecutive unanswered echoes mark it failed, one answer clears that, and a
 * Recovery value different from the last one seen means the GGSN restarted. Reports transitions
 * only. Not thread-safe: one prober (one event loop) feeds it; kept across reloads by real id so
 * the last Recovery survives a configuration change.
 */
public final class GtpEchoJudge {
    /** Result bits of {@link #answered} and {@link #unanswered}. */
    public static final int NONE = 0;
    public static final int FAILED = 1;
    public static final int RECOVERED = 2;
    public static final int RESTARTED = 4;

    private int misses;
    private boolean failed;
    /** Last Recovery seen, -1 before the first answer carrying one. */
    private int lastRecovery = -1;

    /**
     * An echo answer arrived.
     *
     * @param recovery the Recovery IE value, -1 when the answer had none
     * @return RECOVERED if it was failed, plus RESTARTED if the Recovery changed
     */
    public int answered(int recovery) {
        int out = NONE;
        misses = 0;
        if (failed) {
            failed = false;
            out |= RECOVERED;
        }
        if (recovery >= 0) {
            if (lastRecovery >= 0 && recovery != lastRecovery) {
                out |= RESTARTED;
            }
            lastRecovery = recovery;
        }
        return out;
    }

    /** An echo went unanswered within the probe timeout; FAILED on the {@code faildetect}-th in a row. */
    public int unanswered(int faildetect) {
        misses++;
        if (!failed && misses >= faildetect) {
            failed = true;
            return FAILED;
        }
        return NONE;
    }

    public boolean failed() {
        return failed;
    }

    public int lastRecovery() {
        return lastRecovery;
    }
}
