package io.mclb.ha.replication;

import io.mclb.binding.BindingKind;
import io.mclb.sticky.StickyKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Every replication metric, declared once. Prometheus names in brackets; they are a contract
 * (DESIGN section 6).
 */
final class ReplicationMetrics {
    /** timer {table} [mclb_replication_lag_seconds]: standby apply time minus the change's time on the active. */
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
    /** counter {table, direction=sent|applied} [mclb_replication_entries_total]: entries, changes and snapshot entries alike. */
    static final String ENTRIES = "mclb.replication.entries";
    /** counter {table, reason} [mclb_replication_unresolved_total]: bindings the standby could not apply (unknown real, kind, bad extra). */
    static final String UNRESOLVED = "mclb.replication.unresolved";
    /** The table label of sticky entries whose kind this process does not know. */
    static final String STICKY_TABLE = "sticky";

    /** Why a replicated binding was not applied on the standby. */
    enum Unresolved {
        UNKNOWN_REAL, UNKNOWN_KIND, MALFORMED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The meters of one replicated table (a sticky kind or a binding kind). */
    static final class TableMeters {
        final String table;
        final Timer lag;
        final Counter sent;
        final Counter applied;
        private final Map<Unresolved, Counter> unresolved = new EnumMap<>(Unresolved.class);

        private TableMeters(MeterRegistry registry, String table) {
            this.table = table;
            lag = Timer.builder(LAG).tag("table", table)
                    .description("replication lag: standby apply time minus the change time on the active")
                    .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
            sent = Counter.builder(ENTRIES).tag("table", table).tag("direction", "sent").register(registry);
            applied = Counter.builder(ENTRIES).tag("table", table).tag("direction", "applied").register(registry);
            for (Unresolved u : Unresolved.values()) {
                unresolved.put(u, Counter.builder(UNRESOLVED).tag("table", table).tag("reason", u.label())
                        .register(registry));
            }
        }

        void lagMicros(long micros) {
            lag.record(Math.max(0, micros), TimeUnit.MICROSECONDS);
        }

        void unresolved(Unresolved u) {
            unresolved.get(u).increment();
        }

        long unresolved() {
            long n = 0;
            for (Counter c : unresolved.values()) {
                n += (long) c.count();
            }
            return n;
        }
    }

    /** Why a frame or connection was refused. */
    enum Refusal {
        BAD_HMAC, UNKNOWN_PEER, MALFORMED, SEQUENCE_GAP, TLS;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    /** By sticky kind code; filled at start for every kind declared, lazily for the rest. */
    private final TableMeters[] stickyTables = new TableMeters[256];
    private final Map<String, TableMeters> tables = new ConcurrentHashMap<>();
    final Counter framesSent;
    final Counter framesReceived;
    final Counter resyncs;
    final Counter overflows;
    final AtomicInteger connected = new AtomicInteger();
    private final Map<Refusal, Counter> refused = new EnumMap<>(Refusal.class);

    ReplicationMetrics(MeterRegistry registry, LongSupplier backlog) {
        this.registry = registry;
        // declared at start so dashboards and alerts find every table before the first change
        for (StickyKind k : StickyKind.all()) {
            sticky(k.code());
        }
        for (BindingKind<?> k : BindingKind.all()) {
            if (k.codec() != null) {
                table(k.label());
            }
        }
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

    /** The meters of sticky entries of kind {@code code} (a key's first byte). */
    TableMeters sticky(int code) {
        TableMeters t = stickyTables[code & 0xFF];
        if (t == null) {
            StickyKind k = StickyKind.ofCode(code & 0xFF);
            t = table(k == null ? STICKY_TABLE : k.label());
            stickyTables[code & 0xFF] = t;
        }
        return t;
    }

    /** The meters of table {@code label} (binding kinds use their label). */
    TableMeters table(String label) {
        return tables.computeIfAbsent(label, l -> new TableMeters(registry, l));
    }

    /** Every table's meters, by label. */
    Map<String, TableMeters> tables() {
        return new TreeMap<>(tables);
    }

    /** Lag over every table: mean and max in ms (show replicate). */
    double[] lagMeanMaxMs() {
        long count = 0;
        double total = 0;
        double max = 0;
        for (TableMeters t : tables.values()) {
            count += t.lag.count();
            total += t.lag.totalTime(TimeUnit.MILLISECONDS);
            max = Math.max(max, t.lag.max(TimeUnit.MILLISECONDS));
        }
        return new double[] {count == 0 ? 0 : total / count, max};
    }
}
