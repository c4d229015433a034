package io.mclb.farm;

/**
 * Confirms in-band suspicion with the real's probes (the probe scheduler, for a real it probes).
 * Called on the data path when a real's in-band failures reach {@code faildetect}: it must only
 * start the probes (on their own loops) and return; the outcome comes back through
 * {@link RealHealth#endSuspicion}.
 */
@FunctionalInterface
public interface InbandConfirmer {
    void confirm(RealServer real, String why);
}
