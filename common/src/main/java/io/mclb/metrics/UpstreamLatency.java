package io.mclb.metrics;

import io.micrometer.core.instrument.Timer;

import java.time.Duration;

/**
 * {@code mclb_upstream_latency_seconds}, one family with two kinds of series: per virtual server
 * ({@code vserver}) and per real ({@code farm}, {@code real}). Every series of the family is built
 * here, so they share buckets (histograms of one family must, to be summed) and the description
 * (Prometheus keeps one HELP per family; a differing one is lost).
 */
final class UpstreamLatency {
    private static final Duration[] BUCKETS = {
        Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5)
    };

    private UpstreamLatency() {
    }

    static Timer.Builder builder() {
        return Timer.builder(MetricNames.UPSTREAM_LATENCY).description("Time from forwarding a request to the real's answer")
                .serviceLevelObjectives(BUCKETS);
    }
}
