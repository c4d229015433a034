package io.mclb.probe;

import io.mclb.config.MclbConfig;
import io.mclb.config.ProbeConfig;
import io.mclb.config.ProbeRef;
import io.mclb.farm.InbandConfirmer;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.metrics.MetricNames;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs every probe attached to a farm ({@code probe NAME}) against each real of the farm: one
 * {@link ProbeTask} per (probe, real) on one of the data event loops. A real failed by any of its
 * probes is PROBE_FAILED and recovers only when all pass ({@link RealServer#setProbeFailed}); a new
 * real is TESTING until each of its probes has passed once, and those first checks go out through
 * the enhanced bring-up gate ({@link BringUpGate}); in-band failures of a probed real are
 * confirmed by its probes before it is failed ({@link #confirm}).
 *
 * <p>{@link #apply} (start, every reload) keeps the health of a probe that stays on a real and
 * restarts only what changed; a probe removed from a real no longer holds it down. Each task's
 * state is confined to its loop; {@link #apply} and {@link #close} are serialised.
 */
public final class ProbeScheduler implements AutoCloseable, InbandConfirmer {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    private final ServiceContext ctx;
    private final Map<String, ProbeFactory> types;
    private final Map<String, ProbeTask> tasks = new LinkedHashMap<>();
    private final BringUpGate gate = new BringUpGate(BringUpSettings.DEFAULT.maxChecks());
    /** The tasks of each probed real; replaced whole by {@link #apply}, read by {@link #confirm} on any thread. */
    private volatile Map<RealServer, List<ProbeTask>> byReal = Map.of();
    private ScheduledFuture<?> cycles;
    private int cycleMs;
    private volatile CycleObserver observer = started -> { };

    /** Hears the checks each bring-up cycle started (tests count the pattern). */
    interface CycleObserver {
        void cycle(int[] startedByClass);
    }

    public ProbeScheduler(ServiceContext ctx, Map<String, ProbeFactory> types) {
        this.ctx = ctx;
        this.types = Map.copyOf(types);
        for (BringUpClass c : BringUpClass.values()) {
            String label = c.name().toLowerCase(Locale.ROOT);
            FunctionCounter.builder(MetricNames.PROBE_BRINGUP_CHECKS, gate, g -> g.started(c))
                    .description("Enhanced bring-up checks started").tag("class", label).register(ctx.registry());
            Gauge.builder(MetricNames.PROBE_BRINGUP_IN_FLIGHT, gate, g -> g.inFlight(c))
                    .description("Enhanced bring-up checks in flight").tag("class", label).register(ctx.registry());
            Gauge.builder(MetricNames.PROBE_BRINGUP_WAITING, gate, g -> g.waiting(c))
                    .description("Enhanced bring-up checks waiting for a cycle").tag("class", label)
                    .register(ctx.registry());
        }
    }

    /** (Re)builds the probe tasks of {@code config} over the running farms. */
    public synchronized void apply(MclbConfig config, Iterable<ServerFarm> farms) {
        bringUp(BringUpSyntax.of(config));
        Map<String, ProbeConfig> probes = config.probes();
        Map<String, ProbeTask> next = new LinkedHashMap<>();
        Map<RealServer, List<ProbeTask>> reals = new IdentityHashMap<>();
        List<RealServer> all = new ArrayList<>();
        for (ServerFarm farm : farms) {
            for (RealServer r : farm.reals()) {
                all.add(r);
            }
            for (ProbeRef ref : farm.config().records(ProbeRef.class)) {
                ProbeConfig p = probes.get(ref.name());
                ProbeFactory type = p == null ? null : types.get(p.type());
                if (type == null) {
                    continue; // validation refused it; a type missing from this build is reported there
                }
                for (RealServer r : farm.reals()) {
                    String key = p.name() + "\u0000" + r.id();
                    if (next.containsKey(key)) {
                        continue;
                    }
                    ProbeTask t = keepOrReplace(tasks.remove(key), p, type, farm, r);
                    next.put(key, t);
                    reals.computeIfAbsent(r, x -> new ArrayList<>()).add(t);
                }
            }
        }
        for (ProbeTask gone : tasks.values()) {
            gone.stop(true);
        }
        tasks.clear();
        tasks.putAll(next);
        Map<RealServer, List<ProbeTask>> snapshot = new IdentityHashMap<>();
        reals.forEach((r, list) -> snapshot.put(r, List.copyOf(list)));
        byReal = snapshot;
        for (RealServer r : all) {
            List<ProbeTask> mine = snapshot.get(r);
            r.health().confirmWith(mine == null ? null : this);
            for (String waited : r.health().untestedProbes()) {
                if (mine == null || mine.stream().noneMatch(t -> t.probe.name().equals(waited))) {
                    r.health().probeTested(waited, "probe " + waited + " does not run");
                }
            }
        }
    }

    private ProbeTask keepOrReplace(ProbeTask old, ProbeConfig p, ProbeFactory type, ServerFarm farm, RealServer r) {
        if (old != null && old.real == r && old.probe.equals(p)) {
            return old;
        }
        // the same loop as before: the inherited health stays confined to one thread
        ProbeTask t = new ProbeTask(p, type, farm, r, old != null ? old.loop : ctx.loops().next(), ctx, gate);
        if (old != null) {
            t.inherit(old);
            old.stop(false);
        }
        t.start();
        return t;
    }

    private void bringUp(BringUpSettings s) {
        gate.maxChecks(s.maxChecks());
        if (cycles != null && cycleMs == s.cycleMs()) {
            return;
        }
        if (cycles != null) {
            cycles.cancel(false);
        }
        cycleMs = s.cycleMs();
        cycles = ctx.loops().next().scheduleAtFixedRate(this::cycle, cycleMs, cycleMs, TimeUnit.MILLISECONDS);
    }

    private void cycle() {
        try {
            int[] started = gate.cycle();
            observer.cycle(started);
        } catch (RuntimeException e) {
            LOG.warn("probe bring-up cycle failed: {}", e.toString());
        }
    }

    void observeCycles(CycleObserver o) {
        observer = o;
    }

    /**
     * In-band failures of {@code real} reached {@code faildetect} (called on the data path): every
     * probe of the real runs now, on its own loop; only a failed one fails the real.
     */
    @Override
    public void confirm(RealServer real, String why) {
        List<ProbeTask> mine = byReal.get(real);
        if (mine == null || mine.isEmpty()) {
            real.health().endSuspicion("no probes to confirm it");
            return;
        }
        LOG.warn("real {} farm {}: {}: SUSPECT, confirming with {} probe(s)", real.label(), real.farmName(), why,
                mine.size());
        Confirmation c = new Confirmation(real, mine.size(), why, ctx.registry());
        for (ProbeTask t : mine) {
            t.loop.execute(() -> t.confirm(c));
        }
    }

    /** Every probe on every real, for {@code show probe} and tests. A snapshot. */
    public synchronized List<ProbeStatus> status() {
        List<ProbeStatus> out = new ArrayList<>();
        for (ProbeTask t : tasks.values()) {
            out.add(t.status());
        }
        return out;
    }

    @Override
    public synchronized void close() {
        if (cycles != null) {
            cycles.cancel(false);
        }
        for (ProbeTask t : tasks.values()) {
            t.stop(true);
        }
        tasks.clear();
        byReal = Map.of();
    }

    /** Map of a status list by "probe/real" (tests). */
    public static Map<String, ProbeStatus> byProbeAndReal(List<ProbeStatus> all) {
        Map<String, ProbeStatus> out = new HashMap<>();
        for (ProbeStatus s : all) {
            out.put(s.probe() + "/" + s.real(), s);
        }
        return out;
    }
}
