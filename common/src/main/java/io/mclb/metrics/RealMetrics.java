package io.mclb.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopCounter;
import io.micrometer.core.instrument.noop.NoopTimer;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The answer meters of one real: {@code mclb_real_responses_total{farm,real}} and the per-real
 * series of {@code mclb_upstream_latency_seconds{farm,real}}. Registered once when the real
 * appears and held by its {@link io.mclb.farm.RealServer}, so a relay pays an adder increment (and
 * a timer record) per answer, never a registry lookup. Shared by every event loop: Micrometer's
 * counters and timers are lock-free.
 */
public final class RealMetrics {
    /** Until the runtime registers a real's meters (and for reals built outside a runtime). */
    public static final RealMetrics NONE = new RealMetrics(
            new NoopCounter(new Meter.Id(MetricNames.REAL_RESPONSES, Tags.empty(), null, null, Meter.Type.COUNTER)),
            new NoopTimer(new Meter.Id(MetricNames.UPSTREAM_LATENCY, Tags.empty(), null, null, Meter.Type.TIMER)));

    private final Counter responses;
    private final Timer latency;

    private RealMetrics(Counter responses, Timer latency) {
        this.responses = responses;
        this.latency = latency;
    }

    public static RealMetrics register(MeterRegistry registry, String farm, String real) {
        Tags tags = Tags.of("farm", farm, "real", real);
        return new RealMetrics(Counter.builder(MetricNames.REAL_RESPONSES)
                .description("Answers from a real matched to their request or flow").tags(tags).register(registry),
                UpstreamLatency.builder().tags(tags).register(registry));
    }

    /** A request/response service's answer, {@code latencyNs} after the request was forwarded. */
    public void answered(long latencyNs) {
        responses.increment();
        latency.record(latencyNs, TimeUnit.NANOSECONDS);
    }

    /** A plain UDP flow's answer: no request to time it against. */
    public void responded() {
        responses.increment();
    }

    /** What {@link #register} added, for removal with the real. */
    public List<Meter> meters() {
        return List.of(responses, latency);
    }
}
