package io.mclb.runtime;

import io.mclb.binding.Bindings;
import io.mclb.config.MclbConfig;
import io.mclb.config.PredictorKind;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.farm.RealStateListener;
import io.mclb.farm.ServerFarm;
import io.mclb.farm.TrackPorts;
import io.mclb.metrics.MetricNames;
import io.mclb.metrics.ProcessMetrics;
import io.mclb.net.LocalAddresses;
import io.mclb.net.Transports;
import io.mclb.predictor.RouteMaps;
import io.mclb.probe.ProbeScheduler;
import io.mclb.probe.ProbeStatus;
import io.mclb.route.LinuxRouteInjector;
import io.mclb.route.RouteHealth;
import io.mclb.route.RouteInjector;
import io.mclb.select.SubscriberClaims;
import io.mclb.service.Modules;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.service.ServingGate;
import io.mclb.sticky.StickyExpirySweeper;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyTables;
import io.mclb.time.NanoClock;
import io.mclb.transaction.TransactionBudget;
import io.mclb.transaction.TransactionRelay;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The running balancer: event loops, the sticky table, server farms and virtual servers built
 * from one {@link MclbConfig}, and {@link #reload} which applies a new one while keeping the state
 * of everything that did not change (real states and counters, listeners, flows, transactions,
 * sticky entries).
 */
public final class MclbRuntime implements AutoCloseable, ServiceContext {
    private static final Logger LOG = LoggerFactory.getLogger(MclbRuntime.class);

    private final NanoClock clock;
    private final Map<String, ServiceModule> services;
    private final List<ServiceModule> modules;
    private final ServingGate gate;
    private final PrometheusMeterRegistry registry;
    private final EventLoopGroup loops;
    private final StickyTable sticky;
    private final ReplicatedValues replicatedValues = new ReplicatedValues();
    private final StickyExpirySweeper sweeper;
    private final RealMeters realMeters;
    private final ProcessMetrics processMetrics;
    private final ClientCounter clientCounter;
    private final ExecutorService background;
    private final Counter reloadsOk;
    private final Counter reloadsFailed;
    private final Map<String, ServerFarm> farms = new ConcurrentHashMap<>();
    private final Map<String, VirtualServer> vservers = new ConcurrentHashMap<>();
    private final RealDirectory realsById = new RealDirectory();
    private final RealStateListener stateListener = this::onRealTransition;
    private final SubscriberClaims claims = new SubscriberClaims();
    private final Bindings bindings;
    private final ProbeScheduler probes;
    private final TrackPorts trackPorts = new TrackPorts();
    private final RouteHealth routes;
    /** {@code mclb max-transactions}: the per-loop cap every transaction relay shares. */
    private final TransactionBudget transactionBudget = new TransactionBudget();
    private volatile MclbConfig config;

    private MclbRuntime(MclbConfig config, Modules modules, ServingGate gate, NanoClock clock, StickyTable sticky,
                        RouteInjector routeInjector) {
        this.config = config;
        this.services = modules.byService();
        this.modules = modules.services();
        this.gate = gate;
        this.clock = clock;
        this.sticky = sticky;
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.realMeters = new RealMeters(registry);
        this.clientCounter = new ClientCounter(realsById);
        this.background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mclb-background");
            t.setDaemon(true);
            return t;
        });
        int threads = config.global().eventLoops() > 0 ? config.global().eventLoops()
                : Runtime.getRuntime().availableProcessors();
        Transports.Choice transport = Transports.use(config.global().transport());
        LOG.info("transport {} ({}), {} event loop(s), data path UDP: {}", transport.kind().keyword(), transport.why(),
                threads, Transports.relayReadPath());
        this.loops = Transports.newGroup(threads, "mclb-loop");
        this.sweeper = new StickyExpirySweeper(sticky, clock, Duration.ofSeconds(10));
        this.reloadsOk = Counter.builder(MetricNames.CONFIG_RELOADS).description("Configuration reloads")
                .tag("result", "ok").register(registry);
        this.reloadsFailed = Counter.builder(MetricNames.CONFIG_RELOADS).description("Configuration reloads")
                .tag("result", "failed").register(registry);
        this.processMetrics = new ProcessMetrics(registry);
        java.util.Set<StickyKind> kinds = new java.util.LinkedHashSet<>(StickyKind.all());
        modules.services().forEach(m -> kinds.addAll(m.stickyKinds()));
        for (StickyKind k : kinds) {
            Gauge.builder(MetricNames.STICKY_ENTRIES, sticky, t -> t.size(k)).description("Sticky entries per table")
                    .tag("table", k.label()).register(registry);
        }
        this.bindings = new Bindings(clock, registry);
        this.probes = new ProbeScheduler(this, modules.grammar().probeTypes());
        this.routes = new RouteHealth(routeInjector, registry, vservers::values);
        FunctionCounter.builder(MetricNames.STICKY_REFUSED_FULL, sticky, StickyTable::refusedFull)
                .description("Sticky entries not written because the table was full").register(registry);
        Gauge.builder(MetricNames.STICKY_CAPACITY, sticky, StickyTable::capacity)
                .description("Entries the sticky table was created for").register(registry);
    }

    /**
     * Opens the sticky table in the data directory (recovering it after an unclean stop), builds
     * farms and virtual servers and binds their listeners.
     */
    public static MclbRuntime start(MclbConfig config, Modules modules, ServingGate gate, NanoClock clock)
            throws Exception {
        return start(config, modules, gate, clock, new LinuxRouteInjector());
    }

    /** {@link #start(MclbConfig, Modules, ServingGate, NanoClock)} acting on routes through {@code routeInjector}. */
    public static MclbRuntime start(MclbConfig config, Modules modules, ServingGate gate, NanoClock clock,
                                    RouteInjector routeInjector) throws Exception {
        StickyTable sticky = StickyTables.open(config.global().dataDir(), config.global().stickyEntries());
        MclbRuntime rt;
        try {
            rt = new MclbRuntime(config, modules, gate, clock, sticky, routeInjector);
        } catch (RuntimeException e) {
            sticky.close();
            throw e;
        }
        try {
            rt.sticky.addListener(rt.clientCounter);
            RouteMaps routeMaps = RouteMaps.of(config);
            for (ServerFarmConfig f : config.farms().values()) {
                rt.addFarm(f, routeMaps);
            }
            rt.clientCounter.recount(sticky);
            rt.trackPorts.apply(config, rt.farms().values());
            rt.probes.apply(config, rt.farms().values());
            rt.transactionBudget.apply(config);
            rt.startServices();
            for (VirtualServerConfig v : config.vservers().values()) {
                rt.addVserver(v);
            }
            rt.routes.apply(config);
            rt.sweeper.start();
        } catch (Exception | Error e) {
            rt.close();
            throw e;
        }
        return rt;
    }

    private void addFarm(ServerFarmConfig f, RouteMaps routeMaps) {
        ServerFarm farm = new ServerFarm(f, clock, stateListener, routeMaps);
        farms.put(f.name(), farm);
        for (RealServer r : farm.reals()) {
            realAdded(r);
        }
    }

    private void realAdded(RealServer r) {
        realsById.put(r);
        realMeters.add(r);
    }

    private void realRemoved(RealServer r) {
        realsById.remove(r);
        realMeters.remove(r);
    }

    private VserverSnapshot snapshotFor(VirtualServerConfig v) {
        ServerFarm backup = v.backupFarm() == null ? null : farms.get(v.backupFarm());
        return new VserverSnapshot(v, Objects.requireNonNull(farms.get(v.farm()), v.farm()), backup);
    }

    private void addVserver(VirtualServerConfig v) throws InterruptedException {
        // an HA group's virtual server binds before its address arrives (IP_FREEBIND); any other must be local
        String notLocal = v.standbyGroup() == null ? LocalAddresses.whyNotLocal(v.address()) : null;
        if (notLocal != null) {
            throw new IllegalStateException("vserver " + v.name() + ": VIP " + v.address().getHostAddress() + ": "
                    + notLocal);
        }
        VirtualServer vs = new VirtualServer(snapshotFor(v), clock, sticky, gate, registry, realsById::get, claims);
        try {
            if (v.service() == null) {
                vs.start(loops, vs::newFlowRelay);
            } else {
                ServiceModule m = services.get(v.service());
                if (m == null) {
                    throw new IllegalStateException("vserver " + v.name() + ": no module serves 'service " + v.service()
                            + "'");
                }
                vs.start(loops, loop -> transactionRelay(vs, loop, m.newInspector(vs), transactionBudget));
            }
        } catch (IllegalStateException e) {
            vs.close();
            throw e; // names the vserver, its VIP and port, and why
        } catch (Exception e) {
            vs.close();
            throw new IllegalStateException("vserver " + v.name() + ": cannot listen on " + v.address().getHostAddress()
                    + " udp " + v.listenPorts() + ": " + e.getMessage(), e);
        }
        vservers.put(v.name(), vs);
    }

    private static <T> TransactionRelay<T> transactionRelay(VirtualServer vs, io.netty.channel.EventLoop loop,
                                                           ServiceInspector<T> inspector, TransactionBudget budget) {
        return new TransactionRelay<>(vs, loop, inspector, budget.share(loop));
    }

    /**
     * Applies a new configuration. Farms and reals that still exist keep their runtime objects
     * (state, counters) with the new settings; virtual servers whose address, port and service are
     * unchanged keep their listeners, flows and transactions and only see the new settings.
     * Sticky entries are never dropped by a reload.
     *
     * @return notes for the operator (settings that need a restart)
     */
    public synchronized List<String> reload(MclbConfig next) throws Exception {
        List<String> notes = new ArrayList<>();
        try {
            var g0 = config.global();
            var g1 = next.global();
            if (!g0.admin().equals(g1.admin()) || !g0.dataDir().equals(g1.dataDir())
                    || g0.stickyEntries() != g1.stickyEntries() || g0.eventLoops() != g1.eventLoops()
                    || g0.transport() != g1.transport()) {
                notes.add("global mclb settings (admin, data-dir, sticky entries, event-loops, transport) take effect after a restart");
            }
            // farms first: virtual servers are re-pointed to them below
            RouteMaps routeMaps = RouteMaps.of(next);
            for (ServerFarmConfig f : next.farms().values()) {
                ServerFarm existing = farms.get(f.name());
                if (existing == null) {
                    addFarm(f, routeMaps);
                } else if (!existing.config().sameSettings(f) || f.predictor() == PredictorKind.ROUTE_MAP) {
                    // a route-map farm reads the route maps, which may have changed without it
                    for (RealServer gone : existing.update(f, routeMaps)) {
                        realRemoved(gone);
                    }
                    for (RealServer r : existing.reals()) {
                        realAdded(r);
                    }
                }
            }
            config = next;
            transactionBudget.apply(next);
            startServices();
            // listeners that go are closed before new ones bind: a renamed virtual server keeps its VIP
            for (String name : new ArrayList<>(vservers.keySet())) {
                if (!next.vservers().containsKey(name)) {
                    vservers.remove(name).close();
                }
            }
            List<VirtualServerConfig> added = new ArrayList<>();
            for (VirtualServerConfig v : next.vservers().values()) {
                VirtualServer existing = vservers.get(v.name());
                if (existing != null && existing.snapshot().config().sameListener(v)) {
                    existing.update(snapshotFor(v));
                } else {
                    if (existing != null) {
                        vservers.remove(v.name()).close();
                    }
                    added.add(v);
                }
            }
            for (VirtualServerConfig v : added) {
                addVserver(v);
            }
            for (String name : new ArrayList<>(farms.keySet())) {
                if (!next.farms().containsKey(name)) {
                    for (RealServer r : farms.remove(name).reals()) {
                        realRemoved(r);
                    }
                }
            }
            trackPorts.apply(next, farms().values());
            probes.apply(next, farms().values());
            routes.apply(next);
            clientCounter.recount(sticky);
            reloadsOk.increment();
            LOG.info("configuration reloaded: {} farm(s), {} vserver(s)", farms.size(), vservers.size());
            return notes;
        } catch (Exception e) {
            reloadsFailed.increment();
            throw e;
        }
    }

    private void startServices() throws Exception {
        for (ServiceModule m : modules) {
            m.start(this);
        }
    }

    /** Counts a reload refused before it reached {@link #reload} (a configuration error). */
    public void reloadRefused() {
        reloadsFailed.increment();
    }

    private void onRealTransition(RealServer real, RealState from, RealState to, String reason) {
        registry.counter(MetricNames.REAL_TRANSITIONS, "farm", real.farmName(), "real", real.label(), "to", to.name())
                .increment();
        trackPorts.onTransition(real);
        routes.changed();
        for (ServiceModule m : modules) {
            try {
                m.realTransition(real, from, to);
            } catch (RuntimeException e) {
                LOG.warn("module {} on real {} -> {}: {}", m.getClass().getSimpleName(), real.label(), to, e.toString());
            }
        }
        if (to == RealState.FAILED) {
            ServerFarm farm = farms.get(real.farmName());
            if (farm != null && farm.config().failActionPurge()) {
                long id = real.id();
                background.execute(() -> {
                    int n = sticky.removeIf((k, v) -> v.realId() == id,
                            io.mclb.sticky.StickyChangeListener.RemoveReason.PURGED);
                    LOG.info("failaction purge: removed {} sticky entries of failed real {} in farm {}", n,
                            real.label(), real.farmName());
                });
            }
        }
    }

    @Override
    public MclbConfig config() {
        return config;
    }

    @Override
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public StickyTable stickyTable() {
        return sticky;
    }

    @Override
    public NanoClock clock() {
        return clock;
    }

    /** Farms by name, in configuration order. */
    @Override
    public Map<String, ServerFarm> farms() {
        Map<String, ServerFarm> out = new LinkedHashMap<>();
        for (String n : config.farms().keySet()) {
            ServerFarm f = farms.get(n);
            if (f != null) {
                out.put(n, f);
            }
        }
        return out;
    }

    /** Virtual servers by name, in configuration order. */
    @Override
    public Map<String, VirtualServer> vservers() {
        Map<String, VirtualServer> out = new LinkedHashMap<>();
        for (String n : config.vservers().keySet()) {
            VirtualServer v = vservers.get(n);
            if (v != null) {
                out.put(n, v);
            }
        }
        return out;
    }

    @Override
    public ReplicatedValues replicatedValues() {
        return replicatedValues;
    }

    @Override
    public RealServer realById(long id) {
        return realsById.get(id);
    }

    @Override
    public Bindings bindings() {
        return bindings;
    }

    /** Every probe on every real now ({@code show probe}). */
    public List<ProbeStatus> probeStatus() {
        return probes.status();
    }

    /** The probe scheduler (diagnostics and tests: the bring-up cycles). */
    public ProbeScheduler probeScheduler() {
        return probes;
    }

    /** Route health injection: which virtual addresses are advertised now. */
    public RouteHealth routeHealth() {
        return routes;
    }

    /** {@code mclb max-transactions} as applied, with what the fullest loop tracks now. */
    public TransactionBudget transactionBudget() {
        return transactionBudget;
    }

    @Override
    public EventLoopGroup loops() {
        return loops;
    }

    /** Closes listeners, stops the loops and closes the sticky table cleanly (no recovery next start). */
    @Override
    public void close() {
        routes.close(); // first: the routing daemon stops announcing before the listeners go
        for (VirtualServer v : vservers.values()) {
            v.close();
        }
        vservers.clear();
        probes.close();
        for (ServiceModule m : modules) {
            try {
                m.stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping service module {} failed", m.getClass().getSimpleName(), e);
            }
        }
        bindings.close();
        sweeper.close();
        background.shutdown();
        try {
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        sticky.close();
        processMetrics.close();
        registry.close();
    }
}
