package io.mclb.probe;

import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.metrics.MetricNames;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One probe on one real: its {@link ProbeCheck}, one run per interval (from the previous run's
 * start), a timeout per run and the real's health for this probe ({@link HealthTracker}). Until
 * the probe has passed once on the real its runs wait for the {@link BringUpGate}; a
 * confirmation run (in-band suspicion, {@link Confirmation}) goes out at once and one failure of
 * it fails the real. After construction every field is confined to {@link #loop}; the status
 * fields are volatile for {@code show probe}.
 */
final class ProbeTask implements BringUpGate.Waiting {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeTask.class);

    /** What a run is for. */
    private enum Kind { REGULAR, BRING_UP, CONFIRM }

    final ProbeConfig probe;
    final ServerFarm farm;
    final RealServer real;
    final EventLoop loop;
    private final ProbeFactory type;
    private final ServiceContext ctx;
    private final BringUpGate gate;
    private final BringUpClass bringUpClass;
    private final Counter passed;
    private final Counter failed;
    private final Counter timedOut;
    private final Timer duration;
    private HealthTracker health = new HealthTracker();
    private ProbeCheck check;
    private CheckWheel.Entry ticker;
    private Run run;
    private boolean queued;
    private volatile String target = "";
    private volatile String lastResult = "none";
    private volatile String lastReason = "";
    private volatile long lastRttNs = -1;
    private volatile long lastEndedNs;
    private volatile boolean stopped;

    ProbeTask(ProbeConfig probe, ProbeFactory type, ServerFarm farm, RealServer real, EventLoop loop,
              ServiceContext ctx, BringUpGate gate) {
        this.probe = probe;
        this.type = type;
        this.farm = farm;
        this.real = real;
        this.loop = loop;
        this.ctx = ctx;
        this.gate = gate;
        this.bringUpClass = type.bringUpClass();
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
    void inherit(ProbeTask old) {
        health = old.health;
    }

    void start() {
        loop.execute(() -> {
            if (stopped) {
                return;
            }
            try {
                check = type.newCheck(probe, real, new ProbeContext(loop, ctx, probe.name()));
                target = check.targetLabel();
            } catch (RuntimeException e) {
                LOG.warn("probe {}: cannot check real {} farm {}: {}", probe.name(), real.label(), farm.name(),
                        e.toString());
                return;
            }
            // an untested probe goes now (through the bring-up gate); one that inherits its health
            // from before a reload starts at a random point of its interval, so a reload is no burst
            long intervalMs = probe.intervalSeconds() * 1000L;
            schedule(health.everPassed() ? ThreadLocalRandom.current().nextLong(intervalMs) : 0);
        });
    }

    private void schedule(long firstDelayMs) {
        if (ticker != null) {
            ticker.cancel();
        }
        ticker = LoopTimers.of(loop).every(this::tick, firstDelayMs, probe.intervalSeconds() * 1_000_000_000L);
    }

    private void tick() {
        if (run != null) {
            run.timeout(); // timeout == interval: the last run is still out, it counts now
        }
        if (!health.everPassed()) {
            if (!queued) {
                queued = true;
                gate.offer(bringUpClass, this);
            }
            return;
        }
        startRun(Kind.REGULAR, null);
    }

    /** The bring-up gate's turn for this probe (any thread): the check starts on the loop. */
    @Override
    public void admitted() {
        loop.execute(() -> {
            queued = false;
            if (stopped || run != null || check == null) {
                gate.finished(bringUpClass); // nothing started: the slot goes back
                return;
            }
            startRun(Kind.BRING_UP, null);
        });
    }

    /** In-band suspicion: a check now, whatever runs, and its verdict to {@code c}. On the loop. */
    void confirm(Confirmation c) {
        if (stopped || check == null) {
            c.reported(this, true, "probe not running");
            return;
        }
        if (run != null) {
            Run old = run;
            run = null;
            check.cancel();
            old.settle();
        }
        startRun(Kind.CONFIRM, c);
    }

    private void startRun(Kind kind, Confirmation c) {
        Run r = new Run(kind, c, System.nanoTime());
        run = r;
        try {
            check.run(r);
        } catch (RuntimeException e) {
            r.fail("check failed to run: " + e);
        }
        // a regular run whose timeout is its whole interval ends at the next tick, which times it
        // out before it starts the next run: no timer to schedule and cancel for every check
        if (run == r && (kind != Kind.REGULAR || probe.timeoutSeconds() < probe.intervalSeconds())) {
            long timeoutNs = Math.min(probe.timeoutSeconds(), probe.intervalSeconds()) * 1_000_000_000L;
            r.timer = LoopTimers.of(loop).once(r::timeout, timeoutNs);
        }
    }

    /** A run ended (on the loop). */
    private void ended(Run r, boolean ok, boolean timeout, String reason) {
        r.settle();
        if (run != r || stopped) {
            return;
        }
        run = null;
        long now = System.nanoTime();
        lastEndedNs = now;
        if (timeout) {
            check.cancel();
            timedOut.increment();
        } else if (ok) {
            passed.increment();
            lastRttNs = now - r.startedNs;
            duration.record(lastRttNs, TimeUnit.NANOSECONDS);
        } else {
            failed.increment();
        }
        lastResult = ok ? "success" : timeout ? "timeout" : "failure";
        lastReason = ok ? "" : reason;
        boolean firstPass = ok && !health.everPassed();
        HealthTracker.Change change = r.kind == Kind.CONFIRM && !ok ? health.forceFail()
                : health.record(ok, probe.faildetect());
        if (firstPass) { // before a recovery is reported: the real goes straight to OPERATIONAL
            real.health().probeTested(probe.name(), "probe " + probe.name() + " passed");
            // the next check one interval after this one's start: the bring-up cycles spread the
            // checks of many reals, and that spread is kept rather than all ticking together
            long sinceStartMs = TimeUnit.NANOSECONDS.toMillis(now - r.startedNs);
            schedule(Math.max(0, probe.intervalSeconds() * 1000L - sinceStartMs));
        }
        if (change == HealthTracker.Change.FAILED) {
            LOG.warn("probe {} ({}): real {} farm {} {} ({}): probe failed", probe.name(), probe.type(),
                    real.label(), farm.name(), r.kind == Kind.CONFIRM ? "confirms its in-band failures"
                            : "failed " + probe.faildetect() + " times in a row", reason);
            real.setProbeFailed(probe.name(), true);
        } else if (change == HealthTracker.Change.RECOVERED) {
            LOG.info("probe {} ({}): real {} farm {} passes again", probe.name(), probe.type(), real.label(),
                    farm.name());
            real.setProbeFailed(probe.name(), false);
        }
        if (r.confirmation != null) {
            r.confirmation.reported(this, ok, reason);
        }
    }

    /** @param release whether the real is freed from this probe (it was removed, not replaced) */
    void stop(boolean release) {
        stopped = true;
        loop.execute(() -> {
            if (ticker != null) {
                ticker.cancel();
            }
            Run r = run;
            run = null;
            if (r != null) {
                r.settle();
                if (r.confirmation != null) {
                    r.confirmation.reported(this, true, "probe stopped");
                }
            }
            if (check != null) {
                check.close();
            }
            if (release) {
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
        HealthTracker h = health;
        String state = h.failed() ? "FAILED" : !h.everPassed() ? "TESTING" : "OPERATIONAL";
        long ended = lastEndedNs;
        return new ProbeStatus(probe.name(), probe.type(), farm.name(), real.label(), target, state,
                real.state().name(), lastResult, lastReason, lastRttNs, h.consecutiveFailures(), h.failed(),
                probe.intervalSeconds(), probe.faildetect(), probe.timeoutSeconds(), (long) passed.count(),
                (long) failed.count(), (long) timedOut.count(),
                ended == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - ended));
    }

    /** One run: the first of pass, fail or timeout counts. */
    private final class Run implements ProbeResult {
        final Kind kind;
        final Confirmation confirmation;
        final long startedNs;
        CheckWheel.Entry timer;
        private boolean settled;

        Run(Kind kind, Confirmation confirmation, long startedNs) {
            this.kind = kind;
            this.confirmation = confirmation;
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
            onLoop(false, true, "timeout after " + Math.min(probe.timeoutSeconds(), probe.intervalSeconds()) + " s");
        }

        /** Ended or abandoned (on the loop): the timeout is cancelled and a bring-up slot freed, once. */
        void settle() {
            if (settled) {
                return;
            }
            settled = true;
            if (timer != null) {
                timer.cancel();
            }
            if (kind == Kind.BRING_UP) {
                gate.finished(bringUpClass);
            }
        }

        private void onLoop(boolean ok, boolean timeout, String reason) {
            if (loop.inEventLoop()) {
                ended(this, ok, timeout, reason);
            } else {
                loop.execute(() -> ended(this, ok, timeout, reason));
            }
        }
    }
}
