package io.mclb.feedback.dfp;

import io.mclb.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The DFP meters of one peer, declared once when it is configured and removed with it. The
 * {@code agent} label is the remote agent ({@code IP:PORT}) on the manager side, and the local
 * agent's NAME on the agent side. Every refusal reason exists from the start at 0.
 */
public final class DfpMetrics {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<DfpRefusal, Counter> refused = new EnumMap<>(DfpRefusal.class);
    private final Counter reports;
    private final Counter unknownHosts;

    private DfpMetrics(MeterRegistry registry, String agent, boolean local) {
        this.registry = registry;
        for (DfpRefusal r : DfpRefusal.values()) {
            Counter c = Counter.builder(MetricNames.DFP_REFUSED).description("DFP streams refused, by reason")
                    .tag("agent", agent).tag("reason", r.label()).register(registry);
            refused.put(r, c);
            meters.add(c);
        }
        if (local) {
            reports = Counter.builder(MetricNames.DFP_REPORTS_SENT)
                    .description("Preference Information messages sent by mclb's DFP agent").tag("agent", agent)
                    .register(registry);
            unknownHosts = null;
        } else {
            reports = Counter.builder(MetricNames.DFP_REPORTS).description("Preference Information messages accepted")
                    .tag("agent", agent).register(registry);
            unknownHosts = Counter.builder(MetricNames.DFP_UNKNOWN_HOSTS)
                    .description("Reported hosts that match no real (ignored)").tag("agent", agent).register(registry);
            meters.add(unknownHosts);
        }
        meters.add(reports);
    }

    /** A remote agent of mclb's DFP manager; the gauge reads its state's MIB number. */
    public static <T> DfpMetrics remote(MeterRegistry registry, String agent, T session, ToDoubleFunction<T> state) {
        DfpMetrics m = new DfpMetrics(registry, agent, false);
        m.meters.add(Gauge.builder(MetricNames.DFP_AGENT_STATE, session, state)
                .description("DFP agent state (CISCO-SLB-MIB: 1 not open, 2 trying, 3 connecting, 4 open, 5 failed,"
                        + " 6 security error)").tag("agent", agent).register(registry));
        return m;
    }

    /** mclb's own agent {@code name}; the gauge reads how many managers are connected. */
    public static <T> DfpMetrics local(MeterRegistry registry, String name, T server, ToDoubleFunction<T> managers) {
        DfpMetrics m = new DfpMetrics(registry, name, true);
        m.meters.add(Gauge.builder(MetricNames.DFP_MANAGERS, server, managers)
                .description("DFP managers connected to mclb's DFP agent").tag("agent", name).register(registry));
        return m;
    }

    public void refused(DfpRefusal reason) {
        refused.get(reason).increment();
    }

    public void report() {
        reports.increment();
    }

    public void unknownHosts(int n) {
        if (unknownHosts != null && n > 0) {
            unknownHosts.increment(n);
        }
    }

    public void remove() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
