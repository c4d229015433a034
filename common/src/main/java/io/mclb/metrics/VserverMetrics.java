package io.mclb.metrics;

import io.mclb.net.DropReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The meters of one virtual server. Meters are resolved once and held, so the data path pays an
 * array index and an adder increment per count, never a registry lookup. Shared by the event
 * loops (Micrometer counters are lock-free adders).
 */
public final class VserverMetrics implements AutoCloseable {
    private static final int MAX_REASONS = 256;

    private final MeterRegistry registry;
    private final String vserver;
    private final List<Meter> meters = new ArrayList<>();
    private final AtomicReferenceArray<Counter> drops = new AtomicReferenceArray<>(MAX_REASONS);
    private final ConcurrentHashMap<String, Counter> reassignments = new ConcurrentHashMap<>();
    public final Counter requests;
    public final Counter responses;
    public final Counter assignments;
    public final Timer upstreamLatency;
    public final Counter requestTimeouts;
    public final Counter retransmissions;
    public final Counter localAnswers;
    public final Counter oneWay;
    public final Counter realInitiated;

    public VserverMetrics(MeterRegistry registry, String vserver) {
        this.registry = registry;
        this.vserver = vserver;
        requests = keep(Counter.builder(MetricNames.REQUESTS).description("Datagrams received from clients")
                .tag("vserver", vserver).register(registry));
        responses = keep(Counter.builder(MetricNames.RESPONSES).description("Datagrams answered to clients")
                .tag("vserver", vserver).register(registry));
        assignments = keep(Counter.builder(MetricNames.ASSIGNMENTS)
                .description("New flows or sessions assigned to a real").tag("vserver", vserver).register(registry));
        requestTimeouts = keep(Counter.builder(MetricNames.REQUEST_TIMEOUTS)
                .description("Requests a real never answered within the request timeout").tag("vserver", vserver)
                .register(registry));
        retransmissions = keep(Counter.builder(MetricNames.RETRANSMISSIONS)
                .description("Client retransmissions of a request in flight").tag("vserver", vserver)
                .register(registry));
        localAnswers = keep(Counter.builder(MetricNames.LOCAL_ANSWERS)
                .description("Messages mclb answered itself").tag("vserver", vserver).register(registry));
        oneWay = keep(Counter.builder(MetricNames.ONE_WAY)
                .description("Requests forwarded that expect no answer").tag("vserver", vserver).register(registry));
        realInitiated = keep(Counter.builder(MetricNames.REAL_INITIATED)
                .description("Requests a real started toward a client, relayed from the virtual address")
                .tag("vserver", vserver).register(registry));
        upstreamLatency = keep(UpstreamLatency.builder().tag("vserver", vserver).register(registry));
        // the engine's reasons exist from the start so dashboards and alert rules see zeros, not gaps
        DropReason.ENGINE.forEach(this::drop);
        reassignment("unanswered");
    }

    public String vserver() {
        return vserver;
    }

    public void countDrop(DropReason reason) {
        drop(reason).increment();
    }

    /** Drops of every reason so far (for {@code show vservers detail}; not on the data path). */
    public long dropsTotal() {
        long n = 0;
        for (int i = 0; i < drops.length(); i++) {
            Counter c = drops.get(i);
            n += c == null ? 0 : (long) c.count();
        }
        return n;
    }

    /** Drops of one reason so far, without declaring its counter (for show; not on the data path). */
    public long dropsOf(DropReason reason) {
        Counter c = reason.id() < MAX_REASONS ? drops.get(reason.id()) : null;
        return c == null ? 0 : (long) c.count();
    }

    public Counter drop(DropReason reason) {
        int id = reason.id();
        if (id >= MAX_REASONS) {
            id = DropReason.INTERNAL_ERROR.id();
        }
        Counter c = drops.get(id);
        if (c == null) {
            c = Counter.builder(MetricNames.DROPS).description("Datagrams dropped, by reason")
                    .tag("vserver", vserver).tag("reason", reason.label()).register(registry);
            if (drops.compareAndSet(id, null, c)) {
                synchronized (meters) {
                    meters.add(c);
                }
            } else {
                c = drops.get(id);
            }
        }
        return c;
    }

    public void countReassignment(String reason) {
        reassignment(reason).increment();
    }

    private Counter reassignment(String reason) {
        return reassignments.computeIfAbsent(reason, r -> keep(Counter.builder(MetricNames.REASSIGNMENTS)
                .description("Flows or requests moved to another real").tag("vserver", vserver)
                .tag("reason", r).register(registry)));
    }

    /** A per-real request counter for this virtual server; resolve once per (vserver, real). */
    public Counter realRequests(String farm, String real) {
        return keep(Counter.builder(MetricNames.REAL_REQUESTS).description("Requests forwarded to a real")
                .tag("vserver", vserver).tag("farm", farm).tag("real", real).register(registry));
    }

    public <M extends Meter> M keep(M meter) {
        synchronized (meters) {
            meters.add(meter);
        }
        return meter;
    }

    /** Removes this virtual server's meters (it was deleted by a reload). */
    @Override
    public void close() {
        synchronized (meters) {
            meters.forEach(registry::remove);
            meters.clear();
        }
    }
}
