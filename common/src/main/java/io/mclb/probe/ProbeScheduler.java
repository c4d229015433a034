package io.mclb.probe;

import io.mclb.config.MclbConfig;
import io.mclb.config.ProbeConfig;
import io.mclb.config.ProbeRef;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.metrics.MetricNames;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs every probe attached to a farm ({@code probe NAME}) against each real of the farm: one
 * {@link ProbeCheck} per (probe, real) on one of the data event loops, one run per interval (from
 * the previous run's start), a timeout per run, and the real's health for that probe
 * ({@link HealthTracker}: {@code faildetect} consecutive failures fail it, the first pass clears
 * it). A real failed by any of its probes is PROBE_FAILED and recovers only when all pass
 * ({@link RealServer#setProbeFailed(String, boolean)}).
 *
 * <p>{@link #apply} (start, every reload) keeps the health of a probe that stays on a real and
 * restarts only what changed; a probe removed from a real no longer holds it down. Each task's
 * state is confined to its loop; {@link #apply} and {@link #close} are serialised.
 */
public final class ProbeScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    private final ServiceContext ctx;
    private final Map<String, ProbeFactory> types;
    private final Map<String, Task> tasks = new LinkedHashMap<>();

    public ProbeScheduler(ServiceContext ctx, Map<String, ProbeFactory> types) {
        this.ctx = ctx;
        this.types = Map.copyOf(types);
    }

    /** (Re)builds the probe tasks of {@code config} over the running farms. */
    public synchronized void apply(MclbConfig config, Iterable<ServerFarm> farms) {
        Map<String, ProbeConfig> probes = config.probes();
        Map<String, Task> next = new LinkedHashMap<>();
        for (ServerFarm farm : farms) {
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
                    Task old = tasks.remove(key);
                    if (old != null && old.real == r && old.probe.equals(p)) {
                        next.put(key, old);
                    } else {
                        // the same loop as before: the inherited health stays confined to one thread
                        Task t = new Task(p, type, farm, r, old != null ? old.loop : ctx.loops().next());
                        if (old != null) {
                            t.inherit(old);
                            old.stop(false);
                        }
                        next.put(key, t);
                        t.start();
                    }
                }
            }
        }
        for (Task gone : tasks.values()) {
            gone.stop(true);
        }
        tasks.clear();
        tasks.putAll(next);
    }

    /** Every probe on every real, for {@code show probe} and tests. A snapshot. */
    public synchronized List<ProbeStatus> status() {
        List<ProbeStatus> out = new ArrayList<>();
        for (Task t : tasks.values()) {
            out.add(t.status());
        }
        return out;
    }

    @Override
    public synchronized void close() {
        for (Task t : tasks.values()) {
            t.stop(true);
        }
        tasks.clear();
    }

    /** One probe on one real. After construction every field is confined to {@link #loop}. */
    private final class Task {
        final ProbeConfig probe;
        final ProbeFactory type;
        final ServerFarm farm;
        final RealServer real;
        final EventLoop loop;
        final Counter passed;
        final Counter failed;
        final Counter timedOut;
        final Timer duration;
        HealthTracker health = new HealthTracker();
        ProbeCheck check;
        ScheduledFuture<?> ticker;
        Run run;
        volatile String lastResult = "none";
        volatile String lastReason = "";
        volatile long lastRttNs = -1;
        volatile boolean stopped;

        Task(ProbeConfig probe, ProbeFactory type, ServerFarm farm, RealServer real, EventLoop loop) {
            this.probe = probe;
            this.type = type;
            this.farm = farm;
            this.real = real;
            this.loop = loop;
            this.passed = results("success");
            this.failed = results("failure");
            this.timedOut = results("timeout");
            this.duration = Timer.builder(MetricNames.PROBE_DURATION).description("Probe check round trips")
                    .tag("probe", probe.name()).tag("farm", farm.name()).tag("real", real.label())
                    .register(ctx.registry());
        }

        private Counter results(String result) {
            return Counter.builder(MetricNames.PROBE_RESULTS).description("Probe checks by result")
                    .tag("probe", probe.name()).tag("farm", farm.name()).tag("real", real.label())
                    .tag("result", result).register(ctx.registry());
        }

        /** The health of the same probe on the same real before a reload changed its settings. */
        void inherit(Task old) {
            health = old.health;
        }

        void start() {
            loop.execute(() -> {
                if (stopped) {
                    return;
                }
                check = type.newCheck(probe, real, new ProbeContext(loop, ctx));
                ticker = loop.scheduleAtFixedRate(this::tick, 0, probe.intervalSeconds(), TimeUnit.SECONDS);
            });
        }

        private void tick() {
            try {
                if (run != null) {
                    run.timeout(); // timeout == interval: the last run is still out, it counts now
                }
                Run r = new Run(this, System.nanoTime());
                run = r;
                check.run(r);
                if (run == r) {
                    long timeoutMs = Math.min(probe.timeoutSeconds(), probe.intervalSeconds()) * 1000L;
                    loop.schedule(r::timeout, Math.max(1, timeoutMs - 1), TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException e) {
                LOG.warn("probe {}: check of real {} farm {} failed to run: {}", probe.name(), real.label(),
                        farm.name(), e.toString());
            }
        }

        /** A run ended (on the loop). */
        void ended(Run r, boolean ok, boolean timeout, String reason) {
            if (run != r || stopped) {
                return;
            }
            run = null;
            if (timeout) {
                check.cancel();
                timedOut.increment();
            } else if (ok) {
                passed.increment();
                long rtt = System.nanoTime() - r.startedNs;
                lastRttNs = rtt;
                duration.record(rtt, TimeUnit.NANOSECONDS);
            } else {
                failed.increment();
            }
            lastResult = ok ? "success" : timeout ? "timeout" : "failure";
            lastReason = ok ? "" : reason;
            HealthTracker.Change change = health.record(ok, probe.faildetect());
            if (change == HealthTracker.Change.FAILED) {
                LOG.warn("probe {} ({}): real {} farm {} failed {} times in a row ({}): probe failed", probe.name(),
                        probe.type(), real.label(), farm.name(), probe.faildetect(), reason);
                real.setProbeFailed(probe.name(), true);
            } else if (change == HealthTracker.Change.RECOVERED) {
                LOG.info("probe {} ({}): real {} farm {} passes again", probe.name(), probe.type(), real.label(),
                        farm.name());
                real.setProbeFailed(probe.name(), false);
            }
        }

        /** @param release whether the real is freed from this probe (it was removed, not replaced) */
        void stop(boolean release) {
            stopped = true;
            loop.execute(() -> {
                if (ticker != null) {
                    ticker.cancel(false);
                }
                if (check != null) {
                    check.close();
                }
                if (release && health.failed()) {
                    real.releaseProbe(probe.name());
                }
            });
            if (release) { // a replacement registered the same meters and keeps counting on them
                ctx.registry().remove(passed);
                ctx.registry().remove(failed);
                ctx.registry().remove(timedOut);
                ctx.registry().remove(duration);
            }
        }

        ProbeStatus status() {
            return new ProbeStatus(probe.name(), probe.type(), farm.name(), real.label(), lastResult, lastReason,
                    lastRttNs, health.consecutiveFailures(), health.failed());
        }
    }

    /** One run of a task: the first of pass, fail or timeout counts. */
    private static final class Run implements ProbeResult {
        final Task task;
        final long startedNs;

        Run(Task task, long startedNs) {
            this.task = task;
            this.startedNs = startedNs;
        }

        @Override
        public void pass() {
            onLoop(true, false, "");
        }

        @Override
        public void fail(String reason) {
            onLoop(false, false, reason);
        }

        void timeout() {
            onLoop(false, true, "timeout after " + task.probe.timeoutSeconds() + " s");
        }

        private void onLoop(boolean ok, boolean timeout, String reason) {
            if (task.loop.inEventLoop()) {
                task.ended(this, ok, timeout, reason);
            } else {
                task.loop.execute(() -> task.ended(this, ok, timeout, reason));
            }
        }
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
