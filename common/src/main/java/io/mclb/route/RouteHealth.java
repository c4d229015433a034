package io.mclb.route;

import io.mclb.config.MclbConfig;
import io.mclb.metrics.MetricNames;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Route health injection (IOS SLB {@code advertise}): per virtual address, a host route in mclb's
 * own table while a virtual server on it wants it advertised: with {@code advertise} while it
 * serves (in service, HA-active), with {@code advertise active} only while it is also
 * serviceable (a real can take work). The routing daemon that redistributes the table announces
 * or withdraws it ({@link RouteTable}).
 *
 * <p>Every real transition asks for a reconcile ({@link #changed}), so a route goes within
 * milliseconds of the last real failing; a reconcile also runs every second (HA changes, and
 * retries of a route command that failed). All route commands run on one worker thread, never
 * on an event loop; the installed set is that thread's, published for the gauges.
 */
public final class RouteHealth implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RouteHealth.class);

    private final RouteInjector injector;
    private final MeterRegistry registry;
    private final Supplier<Collection<VirtualServer>> vservers;
    private final ScheduledExecutorService worker;
    private final AtomicBoolean pending = new AtomicBoolean();
    private final Set<InetAddress> installed = ConcurrentHashMap.newKeySet();
    private final Map<InetAddress, Gauge> gauges = new HashMap<>();
    private volatile RouteTable wantedTable;
    /** The table the installed routes are in (worker thread). */
    private RouteTable installedIn;

    public RouteHealth(RouteInjector injector, MeterRegistry registry, Supplier<Collection<VirtualServer>> vservers) {
        this.injector = injector;
        this.registry = registry;
        this.vservers = vservers;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mclb-routes");
            t.setDaemon(true);
            return t;
        });
        worker.scheduleWithFixedDelay(this::reconcileSafely, 1, 1, TimeUnit.SECONDS);
    }

    /** Start and every reload: the table of {@code config} (or none) and its virtual servers. */
    public void apply(MclbConfig config) {
        wantedTable = AdvertiseSyntax.table(config);
        changed();
    }

    /** Something a route depends on changed (a real's state, a reload): reconcile soon, once. */
    public void changed() {
        if (pending.compareAndSet(false, true)) {
            try {
                worker.execute(this::reconcileSafely);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                pending.set(false);
            }
        }
    }

    /** Whether a route for {@code address} is installed now. */
    public boolean advertised(InetAddress address) {
        return installed.contains(address);
    }

    /** Whether route health injection acts on the OS (a table is configured). */
    public boolean active() {
        return wantedTable != null;
    }

    private void reconcileSafely() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            LOG.warn("route health injection: reconcile failed: {}", e.toString());
        }
    }

    private void reconcile() {
        pending.set(false);
        RouteTable t = wantedTable;
        if (!Objects.equals(t, installedIn)) {
            withdrawAll();
            installedIn = t;
            if (t != null && !injector.flush(t)) {
                LOG.warn("route health injection: could not flush table {} protocol {}", t.table(), t.protocol());
            }
        }
        Set<InetAddress> wanted = new HashSet<>();
        Set<InetAddress> known = new HashSet<>();
        for (VirtualServer vs : vservers.get()) {
            Advertise a = AdvertiseSyntax.of(vs.snapshot().config());
            InetAddress address = vs.snapshot().config().address();
            if (a.enabled()) {
                known.add(address);
                if (a.active() ? vs.serviceable() : vs.serving()) {
                    wanted.add(address);
                }
            }
        }
        if (t == null) {
            return;
        }
        for (InetAddress a : wanted) {
            if (!installed.contains(a)) {
                boolean ok = injector.install(a, t);
                count("install", ok);
                if (ok) {
                    installed.add(a);
                    LOG.info("route health injection: {} advertised (table {})", a.getHostAddress(), t.table());
                }
            }
        }
        for (InetAddress a : Set.copyOf(installed)) {
            if (!wanted.contains(a)) {
                boolean ok = injector.withdraw(a, t);
                count("withdraw", ok);
                if (ok) {
                    installed.remove(a);
                    LOG.info("route health injection: {} withdrawn (table {})", a.getHostAddress(), t.table());
                }
            }
        }
        gauges(known);
    }

    private void withdrawAll() {
        if (installedIn == null) {
            return;
        }
        for (InetAddress a : Set.copyOf(installed)) {
            boolean ok = injector.withdraw(a, installedIn);
            count("withdraw", ok);
            if (ok) {
                installed.remove(a);
            }
        }
    }

    private void gauges(Set<InetAddress> known) {
        for (InetAddress a : known) {
            gauges.computeIfAbsent(a, x -> Gauge.builder(MetricNames.ROUTE_ADVERTISED, installed, s -> s.contains(x) ? 1 : 0)
                    .description("1 while the virtual address's host route is installed for the routing daemon")
                    .tag("address", x.getHostAddress()).register(registry));
        }
        gauges.entrySet().removeIf(e -> {
            if (known.contains(e.getKey()) || installed.contains(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }

    private void count(String action, boolean ok) {
        Counter.builder(MetricNames.ROUTE_CHANGES).description("Route health injection changes")
                .tag("action", action).tag("result", ok ? "ok" : "failed").register(registry).increment();
    }

    /** Withdraws every installed route (a clean stop must not leave the daemon announcing a dead balancer). */
    @Override
    public void close() {
        try {
            worker.submit(this::withdrawAll).get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("route health injection: withdrawing routes at stop failed: {}", e.toString());
        }
        worker.shutdownNow();
    }
}
