package io.mclb.runtime;

import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.metrics.MetricNames;
import io.mclb.metrics.RealMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of every real (gauges, and the answer meters its {@link RealServer} holds), registered
 * when a real appears and removed when a reload drops it.
 */
final class RealMeters {
    private final MeterRegistry registry;
    private final Map<RealServer, List<Meter>> byReal = new ConcurrentHashMap<>();

    RealMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void add(RealServer r) {
        byReal.computeIfAbsent(r, this::register);
    }

    void remove(RealServer r) {
        List<Meter> ms = byReal.remove(r);
        if (ms != null) {
            ms.forEach(registry::remove);
        }
    }

    private List<Meter> register(RealServer r) {
        Tags tags = Tags.of("farm", r.farmName(), "real", r.label());
        List<Meter> ms = new ArrayList<>();
        ms.add(Gauge.builder(MetricNames.SESSIONS_ACTIVE, r, RealServer::activeConnections)
                .description("Connections, flows or sessions assigned to a real now").tags(tags).register(registry));
        ms.add(Gauge.builder(MetricNames.REAL_CLIENTS, r, RealServer::clients)
                .description("Sticky clients assigned to a real now").tags(tags).register(registry));
        for (RealState st : RealState.values()) {
            ms.add(Gauge.builder(MetricNames.REAL_STATE, r, x -> x.state() == st ? 1 : 0)
                    .description("1 for the real's current state").tags(tags).tag("state", st.name())
                    .register(registry));
        }
        ms.add(Gauge.builder(MetricNames.REAL_WEIGHT, r, x -> x.config().weight())
                .description("Real weight by source").tags(tags).tag("source", "config").register(registry));
        ms.add(Gauge.builder(MetricNames.REAL_WEIGHT, r, x -> x.dfpWeight() < 0 ? Double.NaN : x.dfpWeight())
                .description("Real weight by source").tags(tags).tag("source", "dfp").register(registry));
        ms.add(Gauge.builder(MetricNames.REAL_WEIGHT, r, RealServer::operWeight)
                .description("Real weight by source").tags(tags).tag("source", "operational").register(registry));
        ms.add(FunctionCounter.builder(MetricNames.REAL_FAILURES, r, RealServer::failures)
                .description("Failures charged to a real (faildetect input)").tags(tags).register(registry));
        RealMetrics answers = RealMetrics.register(registry, r.farmName(), r.label());
        ms.addAll(answers.meters());
        r.metrics(answers);
        return ms;
    }
}
