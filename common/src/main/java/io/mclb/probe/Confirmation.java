package io.mclb.probe;

import io.mclb.farm.RealServer;
import io.mclb.metrics.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One in-band suspicion of one real, confirmed by running all its probes at once: a failed check
 * has already failed the real for that probe (PROBE_FAILED) when it reports here, so the outcome
 * is {@code confirmed}; when every probe passes it is {@code cleared} and the real is back in
 * service. Counted in {@code mclb_inband_suspect_total{farm,real,outcome}}. Its probes report from
 * their own loops: the count is guarded by this object's monitor.
 */
final class Confirmation {
    private static final Logger LOG = LoggerFactory.getLogger(Confirmation.class);

    private final RealServer real;
    private final MeterRegistry registry;
    private final String why;
    private int pending;
    private String failure;

    Confirmation(RealServer real, int probes, String why, MeterRegistry registry) {
        this.real = real;
        this.pending = probes;
        this.why = why;
        this.registry = registry;
    }

    /** One probe's confirmation check ended. */
    void reported(ProbeTask task, boolean ok, String reason) {
        String outcome;
        synchronized (this) {
            if (!ok && failure == null) {
                failure = "probe " + task.probe.name() + ": " + reason;
            }
            if (--pending != 0) {
                return;
            }
            outcome = failure == null ? "cleared" : "confirmed";
        }
        registry.counter(MetricNames.INBAND_SUSPECT, "farm", real.farmName(), "real", real.label(), "outcome", outcome)
                .increment();
        if (failure == null) {
            LOG.info("real {} farm {}: in-band failures ({}) not confirmed: its probes pass", real.label(),
                    real.farmName(), why);
            real.health().endSuspicion("in-band failures not confirmed: its probes pass");
        } else {
            LOG.warn("real {} farm {}: in-band failures ({}) confirmed by {}", real.label(), real.farmName(), why,
                    failure);
            real.health().endSuspicion("in-band failures confirmed by " + failure);
        }
    }
}
