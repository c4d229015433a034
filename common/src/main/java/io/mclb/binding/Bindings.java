package io.mclb.binding;

import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The binding tables of a running balancer, one per {@link BindingKind}, and their ager: off the
 * event loops (with a million subscribers a walk takes 100-150 ms, which must not stall a loop),
 * each table's idle bindings end, the table walked every sixteenth of its shortest idle time,
 * between one and ten seconds ({@link BindingTable#walkDue}). Tables live as long as the runtime, so a
 * reload keeps every binding. Thread-safe.
 */
public final class Bindings implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Bindings.class);
    static final String ACTIVE = "mclb.bindings.active";

    private final NanoClock clock;
    private final MeterRegistry registry;
    private final Map<BindingKind<?>, BindingTable<?>> tables = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ager;
    /** Given to each new table; written under this object's lock. */
    private volatile BindingTable.ChangeListener listener;

    public Bindings(NanoClock clock, MeterRegistry registry) {
        this.clock = clock;
        this.registry = registry;
        this.ager = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mclb-binding-ager");
            t.setDaemon(true);
            return t;
        });
        ager.scheduleAtFixedRate(this::expireDue, 1, 1, TimeUnit.SECONDS);
    }

    /** The table of {@code kind}, created on first use. */
    @SuppressWarnings("unchecked")
    public <B extends Binding> BindingTable<B> table(BindingKind<B> kind) {
        BindingTable<B> t = (BindingTable<B>) tables.get(kind);
        return t != null ? t : created(kind);
    }

    /** Under the lock, so a table made while {@link #listener} runs cannot miss the listener. */
    @SuppressWarnings("unchecked")
    private synchronized <B extends Binding> BindingTable<B> created(BindingKind<B> kind) {
        return (BindingTable<B>) tables.computeIfAbsent(kind, k -> {
            BindingTable<B> t = new BindingTable<>(kind);
            t.listener(listener);
            Gauge.builder(ACTIVE, t, BindingTable::size).description("Per-subscriber bindings established now")
                    .tag("kind", kind.label()).register(registry);
            return t;
        });
    }

    /** The tables created so far (the HA replicator's snapshot). */
    public java.util.Collection<BindingTable<?>> tables() {
        return java.util.List.copyOf(tables.values());
    }

    /**
     * Sets {@code l} on every table, now and as they are created (the HA replicator); null
     * removes it.
     */
    public synchronized void listener(BindingTable.ChangeListener l) {
        listener = l;
        for (BindingTable<?> t : tables.values()) {
            t.listener(l);
        }
    }

    /** Runs one expiry pass of every table now (tests drive it with a manual clock). */
    public void expireAll() {
        long now = clock.nanoTime();
        for (BindingTable<?> t : tables.values()) {
            expire(t, now);
        }
    }

    /** The ager's tick: walks the tables whose walk is due. */
    void expireDue() {
        long now = clock.nanoTime();
        for (BindingTable<?> t : tables.values()) {
            if (t.walkDue(now)) {
                expire(t, now);
            }
        }
    }

    private static void expire(BindingTable<?> t, long now) {
        try {
            t.expire(now);
        } catch (RuntimeException e) {
            LOG.warn("binding ager, {}: {}", t.kind(), e.toString());
        }
    }

    @Override
    public void close() {
        ager.shutdownNow();
    }
}
