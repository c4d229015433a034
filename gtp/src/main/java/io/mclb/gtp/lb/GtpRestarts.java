package io.mclb.gtp.lb;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The last Recovery value each GGSN sent in an echo answer (29.060 7.7.11: the restart counter): a
 * different value means the GGSN restarted and lost every context it had. Kept by real id across
 * reloads, so a reload that restarts the probe does not see a restart. Thread-safe.
 */
final class GtpRestarts {
    private final ConcurrentHashMap<Long, Integer> last = new ConcurrentHashMap<>();

    /**
     * An echo answer of real {@code realId} carried {@code recovery}.
     *
     * @param recovery the Recovery IE value, -1 when the answer had none (then nothing changes)
     * @return whether it differs from the last value seen (not for the first one)
     */
    boolean restarted(long realId, int recovery) {
        if (recovery < 0) {
            return false;
        }
        Integer before = last.put(realId, recovery);
        return before != null && before != recovery;
    }
}
