package io.mclb.farm;

import io.mclb.config.PredictorKind;
import io.mclb.config.ProbeRef;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.predictor.Predictor;
import io.mclb.predictor.RouteMaps;
import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server farm ({@code ip slb serverfarm NAME}): its reals and predictor; shared by event loops.
 *
 * <p>Everything a lookup needs sits in one immutable {@link Snapshot} behind a volatile field, so
 * a reload is one atomic swap and readers never see half a farm. Reloads are serialised by the
 * monitor; reads take no lock.
 *
 * <p>{@code predictor route-map}: a keyed predictor over the virtual server's backup farm's reals
 * (a route-map farm has none of its own, IOS); the route maps are the configuration's, swapped with
 * it on reload.
 */
public final class ServerFarm {
    private static final Logger LOG = LoggerFactory.getLogger(ServerFarm.class);

    private static final class Snapshot {
        final ServerFarmConfig config;
        final RealServer[] reals;
        final Predictor predictor;
        /** Real ids sorted ascending, with byIdReals[i] the real of sortedIds[i]. */
        final long[] sortedIds;
        final RealServer[] byIdReals;

        Snapshot(ServerFarmConfig config, RealServer[] reals, Predictor predictor) {
            this.config = config;
            this.reals = reals;
            this.predictor = predictor;
            this.byIdReals = reals.clone();
            Arrays.sort(byIdReals, Comparator.comparingLong(RealServer::id));
            this.sortedIds = new long[reals.length];
            for (int i = 0; i < byIdReals.length; i++) {
                sortedIds[i] = byIdReals[i].id();
            }
        }
    }

    private final String name;
    private final NanoClock clock;
    private final RealStateListener listener;
    /** One decision number per pick, shared by all loops (WRR position, WLC tie rotation). */
    private final AtomicLong cursor = new AtomicLong();
    private volatile Snapshot snapshot;

    public ServerFarm(ServerFarmConfig config, NanoClock clock, RealStateListener listener) {
        this(config, clock, listener, RouteMaps.EMPTY);
    }

    public ServerFarm(ServerFarmConfig config, NanoClock clock, RealStateListener listener, RouteMaps routeMaps) {
        this.name = config.name();
        this.clock = clock;
        this.listener = listener == null ? RealStateListener.NONE : listener;
        RealServer[] reals = new RealServer[config.reals().size()];
        for (int i = 0; i < reals.length; i++) {
            reals[i] = newReal(config, config.reals().get(i));
        }
        this.snapshot = new Snapshot(config, reals, predictorFor(config, routeMaps));
    }

    /**
     * A real new to this farm: with probes on the farm it is TESTING until each has passed once,
     * from before any virtual server can see it.
     */
    private RealServer newReal(ServerFarmConfig farm, RealConfig rc) {
        RealServer r = new RealServer(name, rc, clock, listener);
        List<String> probes = farm.records(ProbeRef.class).stream().map(ProbeRef::name).distinct().toList();
        if (!probes.isEmpty()) {
            r.health().awaitProbes(probes);
        }
        return r;
    }

    private static Predictor predictorFor(ServerFarmConfig c, RouteMaps routeMaps) {
        return Predictor.of(c, routeMaps);
    }

    /** Whether the farm's predictor is keyed (a route map): its choice is the request's, not the load's. */
    public boolean keyed() {
        return snapshot.predictor.keyed();
    }

    public String name() {
        return name;
    }

    public ServerFarmConfig config() {
        return snapshot.config;
    }

    /** The current reals in configuration order; a shared snapshot, do not modify. */
    public RealServer[] reals() {
        return snapshot.reals;
    }

    /** The real with this {@link RealId}, or null. */
    public RealServer byId(long realId) {
        Snapshot s = snapshot;
        int i = Arrays.binarySearch(s.sortedIds, realId);
        return i >= 0 ? s.byIdReals[i] : null;
    }

    /** {@link #pickAndAcquire(RealServer[], long, RealServer, boolean, long)} among the farm's own reals. */
    public RealServer pickAndAcquire(long nowNs, RealServer exclude, boolean newClient) {
        return pickAndAcquire(snapshot.reals, nowNs, exclude, newClient, 0);
    }

    /**
     * Chooses with the farm's predictor among {@code reals} (the farm's own, or for a route map the
     * reals its next hops point at), excluding {@code exclude} (may be null), and claims the choice
     * with {@link RealServer#tryAcquire}. Another loop may take the last slot between choice and
     * claim, so a lost claim is retried, at most reals.length times: each attempt is one decision.
     *
     * @return the acquired real (the caller must {@link RealServer#release} it), or null
     */
    public RealServer pickAndAcquire(RealServer[] reals, long nowNs, RealServer exclude, boolean newClient,
                                     long routeKey) {
        Snapshot s = snapshot;
        for (int attempt = 0; attempt < reals.length; attempt++) {
            long decision = s.predictor.keyed() ? 0 : cursor.getAndIncrement();
            int i = s.predictor.choose(reals, decision, nowNs, exclude, newClient, routeKey);
            if (i < 0) {
                return null;
            }
            RealServer r = reals[i];
            if (r.tryAcquire(nowNs, newClient)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Reload. Reals with the same identity (address and port) keep their {@link RealServer}
     * (state, counters) and get the new config; new ones are added, removed ones dropped; the
     * predictor is replaced only if its kind changed.
     *
     * @return the removed reals (their sticky entries and flows are the caller's to clean up)
     */
    public synchronized List<RealServer> update(ServerFarmConfig newConfig) {
        return update(newConfig, RouteMaps.EMPTY);
    }

    /** {@link #update(ServerFarmConfig)} with the new configuration's route maps (a route-map farm reads them). */
    public synchronized List<RealServer> update(ServerFarmConfig newConfig, RouteMaps routeMaps) {
        if (!newConfig.name().equals(name)) {
            throw new IllegalArgumentException("farm " + name + " cannot be reloaded as " + newConfig.name());
        }
        Snapshot old = snapshot;
        List<RealServer> kept = new ArrayList<>(old.reals.length);
        RealServer[] next = new RealServer[newConfig.reals().size()];
        for (int i = 0; i < next.length; i++) {
            RealConfig rc = newConfig.reals().get(i);
            RealServer existing = null;
            for (RealServer r : old.reals) {
                if (r.config().sameIdentity(rc)) {
                    existing = r;
                    break;
                }
            }
            if (existing != null) {
                existing.updateConfig(rc);
                kept.add(existing);
                next[i] = existing;
            } else {
                next[i] = newReal(newConfig, rc);
            }
        }
        List<RealServer> removed = new ArrayList<>();
        for (RealServer r : old.reals) {
            if (!kept.contains(r)) {
                removed.add(r);
            }
        }
        Predictor predictor = old.config.predictor() == newConfig.predictor()
                && newConfig.predictor() != PredictorKind.ROUTE_MAP ? old.predictor : predictorFor(newConfig, routeMaps);
        snapshot = new Snapshot(newConfig, next, predictor);
        if (!removed.isEmpty() || next.length != kept.size() || predictor != old.predictor) {
            LOG.info("farm {}: reloaded, {} reals ({} added, {} removed), predictor {}", name, next.length,
                    next.length - kept.size(), removed.size(), newConfig.predictor().keyword());
        }
        return removed;
    }

    @Override
    public String toString() {
        return "serverfarm " + name;
    }
}
