package io.mclb.ha.replication;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Every replication metric, declared once. Prometheus names in brackets; they are a contract
 * (DESIGN section 6).
 */
final class ReplicationMetrics {
    /** timer [mclb_replication_lag_seconds]: standby apply time minus the change's time on the active. */
    static final String LAG = "mclb.replication.lag";
    /** gauge [mclb_replication_backlog]: changes queued on the active, not yet written. */
    static final String BACKLOG = "mclb.replication.backlog";
    /** counter {direction=sent|received} [mclb_replication_frames_total]. */
    static final String FRAMES = "mclb.replication.frames";
    /** counter [mclb_replication_resyncs_total]: snapshots sent (active) or begun (standby). */
    static final String RESYNCS = "mclb.replication.resyncs";
    /** gauge [mclb_replication_connected]: 1 while a verified peer stream is up. */
    static final String CONNECTED = "mclb.replication.connected";
    /** counter [mclb_replication_overflows_total]: changes dropped because the queue was full (a resync follows). */
    static final String OVERFLOWS = "mclb.replication.overflows";
    /** counter {reason} [mclb_replication_refused_total]: frames or connections refused. */
    static final String REFUSED = "mclb.replication.refused";

    /** Why a frame or connection was refused. */
    enum Refusal {
        BAD_HMAC, UNKNOWN_PEER, MALFORMED, SEQUENCE_GAP, TLS;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    final Timer lag;
    final Counter framesSent;
    final Counter framesReceived;
    final Counter resyncs;
    final Counter overflows;
    final AtomicInteger connected = new AtomicInteger();
    private final Map<Refusal, Counter> refused = new EnumMap<>(Refusal.class);

    ReplicationMetrics(MeterRegistry registry, LongSupplier backlog) {
        lag = Timer.builder(LAG).description("replication lag: standby apply time minus the change time on the active")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
        framesSent = Counter.builder(FRAMES).tag("direction", "sent").register(registry);
        framesReceived = Counter.builder(FRAMES).tag("direction", "received").register(registry);
        resyncs = Counter.builder(RESYNCS).description("bulk resyncs").register(registry);
        overflows = Counter.builder(OVERFLOWS).description("changes dropped on a full queue").register(registry);
        Gauge.builder(BACKLOG, backlog::getAsLong).description("changes queued for the standby").register(registry);
        Gauge.builder(CONNECTED, connected, AtomicInteger::get).description("1 while the peer stream is up")
                .register(registry);
        for (Refusal r : Refusal.values()) {
            refused.put(r, Counter.builder(REFUSED).tag("reason", r.label()).register(registry));
        }
    }

    void refused(Refusal r) {
        refused.get(r).increment();
    }

    double refusedCount(Refusal r) {
        return refused.get(r).count();
    }

    void lagMicros(long micros) {
        lag.record(Math.max(0, micros), TimeUnit.MICROSECONDS);
    }
}
