package io.mclb.farm;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What overrides a real's own state from outside the data path: a DFP weight (0 throttles it) and
 * the probes that fail it (any one makes it PROBE_FAILED). Written rarely, by feedback and probe
 * threads, under this object's monitor; read per eligibility check through volatile fields.
 */
final class RealOverrides {
    /** -1 = no DFP weight; else 0..65535 overrides the configured weight. */
    private volatile int dfpWeight = -1;
    /** {@code !failingProbes.isEmpty()}, for the data path: one volatile read. */
    private volatile boolean probeFailed;
    private final Set<String> failingProbes = new HashSet<>();

    int dfpWeight() {
        return dfpWeight;
    }

    boolean probeFailed() {
        return probeFailed;
    }

    /** @return whether the weight changed */
    boolean dfpWeight(int w) {
        int old = dfpWeight;
        dfpWeight = w;
        return old != w;
    }

    /**
     * Probe {@code probe} fails (true) or passes (false).
     *
     * @return the reason to report, or null when the probe's verdict did not change
     */
    String probe(String probe, boolean failed) {
        return probe(probe, failed, failed ? "failed" : "passes");
    }

    /** @param what how the probe's verdict changed, for the reason ("failed", "passes", "removed") */
    String probe(String probe, boolean failed, String what) {
        boolean changed = failed ? failingProbes.add(probe) : failingProbes.remove(probe);
        if (!changed) {
            return null;
        }
        probeFailed = !failingProbes.isEmpty();
        String reason = "probe " + probe + " " + what;
        return !failed && probeFailed ? reason + ", still failed by " + String.join(", ", failingProbes()) : reason;
    }

    List<String> failingProbes() {
        return List.copyOf(new TreeSet<>(failingProbes));
    }
}
