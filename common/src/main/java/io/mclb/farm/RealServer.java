package io.mclb.farm;

import io.mclb.config.RealConfig;
import io.mclb.metrics.RealMetrics;
import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runtime state of one real in one farm (IOS SLB {@code real IP [PORT]}, reference section 2.1);
 * shared by all event loops, lock-free.
 *
 * <p>Stored states are {@link RealState#OPERATIONAL}, {@link RealState#FAILED},
 * {@link RealState#TESTING} and {@link RealState#OUTOFSERVICE}; they change only by CAS through
 * {@link #moveTo}, which reports each change once. {@link #state()} adds the derived states
 * PROBE_FAILED, DFP_THROTTLED, MAXCONNS and MAXCLIENTS on top of OPERATIONAL.
 *
 * <p>Automatic unfail: a FAILED real whose {@code retry} has elapsed takes exactly one test
 * connection (FAILED -&gt; TESTING by CAS, so only one loop wins); an answer puts it back to
 * OPERATIONAL, a failure puts it back to FAILED and restarts the retry timer. A test that sees
 * neither within another {@code retry} is presumed lost and a new test may be issued, so a real
 * can never be stuck in TESTING.
 *
 * <p>The counts it enforces limits on live in {@link RealLoad}. The distinct-failing-client set is
 * approximate under concurrent failures (a client may be counted twice in a race); it only decides
 * when to fail.
 */
public final class RealServer {
    private static final Logger LOG = LoggerFactory.getLogger(RealServer.class);
    private static final long NS_PER_S = 1_000_000_000L;
    private static final VarHandle STORED;

    static {
        try {
            STORED = MethodHandles.lookup().findVarHandle(RealServer.class, "stored", RealState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Bumped whenever any real's operWeight may have changed; lets predictors cache prefix sums. */
    private static final AtomicLong WEIGHT_EPOCH = new AtomicLong();

    private final String farmName;
    private final InetAddress address;
    private final int port;
    private final long id;
    private final String label;
    private final RealStateListener listener;

    private volatile RealConfig config;
    /** One of OPERATIONAL, FAILED, TESTING, OUTOFSERVICE; written only by CAS in moveTo. */
    @SuppressWarnings("unused")
    private volatile RealState stored;
    /** When the real last went FAILED (retry timer start). */
    private volatile long failedAtNs;
    /** When the outstanding test connection was handed out; CAS-claimed by the test taker. */
    private final AtomicLong testStartedNs = new AtomicLong();
    private final RealOverrides overrides = new RealOverrides();
    private final RealHealth health = new RealHealth(this);

    private final RealLoad load = new RealLoad();
    /** Replaced (not mutated) when numclients changes on reload. */
    private volatile FailStreak streak;
    /** Set once by the runtime when it registers the real's meters. */
    private volatile RealMetrics metrics = RealMetrics.NONE;

    public RealServer(String farmName, RealConfig config, NanoClock clock, RealStateListener listener) {
        this.farmName = farmName;
        this.address = config.address();
        this.port = config.port();
        this.id = RealId.of(farmName, address, port);
        this.label = labelOf(address, port);
        this.listener = listener == null ? RealStateListener.NONE : listener;
        this.config = config;
        this.streak = FailStreak.of(config);
        this.stored = config.inService() ? RealState.OPERATIONAL : RealState.OUTOFSERVICE;
    }

    private static String labelOf(InetAddress a, int port) {
        String ip = a.getHostAddress();
        if (port == 0) {
            return ip;
        }
        return a instanceof Inet6Address ? "[" + ip + "]:" + port : ip + ":" + port;
    }

    /** Changes whenever any real's operational weight may have changed (for predictor caches). */
    public static long weightEpoch() {
        return WEIGHT_EPOCH.get();
    }

    public String farmName() {
        return farmName;
    }

    public InetAddress address() {
        return address;
    }

    /** 0 = the virtual server's port. */
    public int port() {
        return port;
    }

    /** {@link RealId#of}(farm, address, port). */
    public long id() {
        return id;
    }

    /** "ip:port", "[v6]:port", or just the address when the port is 0. */
    public String label() {
        return label;
    }

    public RealConfig config() {
        return config;
    }

    /** The real's answer meters (resolved once: the relays count answers through them). */
    public RealMetrics metrics() {
        return metrics;
    }

    public void metrics(RealMetrics m) {
        metrics = m;
    }

    /**
     * Reload: keeps state and counters. {@code inservice} turning on moves an OUTOFSERVICE real to
     * OPERATIONAL; turning off moves any state to OUTOFSERVICE (so "no inservice; inservice" is a
     * manual unfail, as on IOS).
     */
    public void updateConfig(RealConfig c) {
        if (!c.sameIdentity(config)) {
            throw new IllegalArgumentException("real " + label + " cannot become " + labelOf(c.address(), c.port()));
        }
        RealConfig old = config;
        if (FailStreak.resized(old, c)) {
            streak = FailStreak.of(c);
        }
        config = c;
        if (old.weight() != c.weight()) {
            WEIGHT_EPOCH.incrementAndGet();
        }
        if (c.inService() && !old.inService()) {
            moveTo(RealState.OUTOFSERVICE, RealState.OPERATIONAL, "inservice");
        } else if (!c.inService()) {
            RealState s;
            while ((s = stored()) != RealState.OUTOFSERVICE) {
                if (moveTo(s, RealState.OUTOFSERVICE, "no inservice")) {
                    break;
                }
            }
        }
    }

    private RealState stored() {
        return (RealState) STORED.getVolatile(this);
    }

    /** Stored state plus the derived ones; a snapshot, for show commands and metrics. */
    public RealState state() {
        RealState s = stored();
        if (s != RealState.OPERATIONAL) {
            return s;
        }
        // a probe that failed faildetect times in a row fails the real even before its first pass:
        // it is then known bad, not being tested (both take no work)
        if (overrides.probeFailed()) {
            return RealState.PROBE_FAILED;
        }
        RealState held = health.derived();
        if (held != null) {
            return held;
        }
        if (overrides.dfpWeight() == 0) {
            return RealState.DFP_THROTTLED;
        }
        RealConfig c = config;
        if (load.conns() >= c.maxConns()) {
            return RealState.MAXCONNS;
        }
        if (load.clients() >= c.maxClients()) {
            return RealState.MAXCLIENTS;
        }
        return RealState.OPERATIONAL;
    }

    /** DFP weight if set (&gt;= 0), else the configured weight. */
    public int operWeight() {
        int d = overrides.dfpWeight();
        return d >= 0 ? d : config.weight();
    }

    /** The weight a DFP agent reported for this real, or -1 while none does (the configured weight applies). */
    public int dfpWeight() {
        return overrides.dfpWeight();
    }

    /** DFP (or KAL-AP) weight, 0..65535; -1 clears it and the configured weight applies again. */
    public void setDfpWeight(int w) {
        if (w < -1 || w > 65535) {
            throw new IllegalArgumentException("DFP weight " + w + " not in 0..65535 (or -1 to clear)");
        }
        synchronized (overrides) {
            RealState before = state();
            if (overrides.dfpWeight(w)) {
                WEIGHT_EPOCH.incrementAndGet();
            }
            reportDerived(before, w < 0 ? "DFP weight withdrawn, static weight " + config.weight() : "DFP weight " + w);
        }
    }

    /**
     * Probe {@code probe} fails this real (true) or passes again (false). The real is PROBE_FAILED
     * while any of its probes fails, so two probes on one real never overwrite each other.
     */
    public void setProbeFailed(String probe, boolean failed) {
        overrideProbe(probe, failed, failed ? "failed" : "passes");
    }

    /**
     * Probe {@code probe} no longer checks this real (a reload removed it): it holds it down no
     * more, failing or not yet passed.
     */
    public void releaseProbe(String probe) {
        overrideProbe(probe, false, "removed");
        health.probeTested(probe, "probe " + probe + " removed");
    }

    private void overrideProbe(String probe, boolean failed, String what) {
        synchronized (overrides) {
            RealState before = state();
            String reason = overrides.probe(probe, failed, what);
            if (reason != null) {
                reportDerived(before, reason);
            }
        }
    }

    /** The probes that fail this real now (show commands). */
    public java.util.List<String> failingProbes() {
        synchronized (overrides) {
            return overrides.failingProbes();
        }
    }

    /** Verdicts of the health layer beyond probe failures: not yet tested, suspect, track-port master down. */
    public RealHealth health() {
        return health;
    }

    /** The monitor every derived-state change holds, so each is reported once, in order. */
    Object monitor() {
        return overrides;
    }

    /** {@link #setProbeFailed(String, boolean)} for a real with a single health source (tests, tools). */
    public void setProbeFailed(boolean failed) {
        setProbeFailed("probe", failed);
    }

    /** Reports a change of the DFP/probe/health derived state (not load-driven ones); hold {@link #monitor()}. */
    void reportDerived(RealState before, String reason) {
        RealState after = state();
        if (before != after && (isAdminDerived(before) || isAdminDerived(after))) {
            transition(before, after, reason);
        }
    }

    private static boolean isAdminDerived(RealState s) {
        return s == RealState.PROBE_FAILED || s == RealState.DFP_THROTTLED || s == RealState.TESTING
                || s == RealState.SUSPECT || s == RealState.MASTER_DOWN;
    }

    private long retryNs() {
        return config.retrySeconds() * NS_PER_S;
    }

    /**
     * Whether the real could take new work now; no side effects. In service, not probe-failed,
     * weight &gt; 0, conns &lt; maxconns, rate not used up this second, and for a new client
     * clients &lt; maxclients; or FAILED/TESTING with a test connection due.
     */
    public boolean isEligible(long nowNs, boolean newClient) {
        return eligible(nowNs, newClient, true);
    }

    /**
     * {@link #isEligible} for work of a subscriber this real already holds (its sticky entry, a
     * follow-up bound to one of its sessions): weight 0 (DFP_THROTTLED) means no <em>new</em>
     * subscriber, so a throttled GGSN still gets the secondary PDP contexts of the subscribers it
     * holds. Every other limit applies.
     */
    public boolean isEligibleHeld(long nowNs) {
        return eligible(nowNs, false, false);
    }

    private boolean eligible(long nowNs, boolean newClient, boolean newWork) {
        RealState s = stored();
        if (s == RealState.OPERATIONAL) {
            RealConfig c = config;
            return !overrides.probeFailed() && !health.blocked() && (!newWork || operWeight() > 0)
                    && load.hasRoom(c.maxConns(), c.maxClients(), c.rate(), newClient, nowNs);
        }
        return testDue(s, nowNs);
    }

    private boolean testDue(RealState s, long nowNs) {
        if (overrides.probeFailed() || health.blocked() || operWeight() <= 0) {
            return false;
        }
        if (s == RealState.FAILED) {
            return nowNs - failedAtNs >= retryNs();
        }
        return s == RealState.TESTING && nowNs - testStartedNs.get() >= retryNs();
    }

    /**
     * Atomically claims one new connection. A FAILED real with its retry elapsed is claimed as the
     * test connection (CAS to TESTING; only one caller wins; limits other than weight do not
     * apply to the single test). Otherwise counts conns (capped at maxconns) and the rate window.
     *
     * @return false if the real cannot take it or another thread won the race
     */
    public boolean tryAcquire(long nowNs, boolean newClient) {
        return acquire(nowNs, newClient, true);
    }

    /** {@link #tryAcquire} for a subscriber this real already holds: weight 0 does not refuse it ({@link #isEligibleHeld}). */
    public boolean tryAcquireHeld(long nowNs) {
        return acquire(nowNs, false, false);
    }

    private boolean acquire(long nowNs, boolean newClient, boolean newWork) {
        RealState s = stored();
        if (s != RealState.OPERATIONAL) {
            return tryAcquireTest(s, nowNs);
        }
        RealConfig c = config;
        if (overrides.probeFailed() || health.blocked() || (newWork && operWeight() <= 0)
                || (newClient && load.clients() >= c.maxClients())) {
            return false;
        }
        return load.take(c.maxConns(), c.rate(), nowNs);
    }

    private boolean tryAcquireTest(RealState s, long nowNs) {
        if (!testDue(s, nowNs)) {
            return false;
        }
        if (s == RealState.FAILED) {
            testStartedNs.set(nowNs);
            if (!moveTo(RealState.FAILED, RealState.TESTING, "retry " + config.retrySeconds() + "s elapsed, test connection")) {
                return false;
            }
        } else {
            long started = testStartedNs.get();
            if (nowNs - started < retryNs() || !testStartedNs.compareAndSet(started, nowNs)) {
                return false;
            }
            LOG.info("real {} farm {}: test connection unanswered for {}s, issuing a new one",
                    label, farmName, config.retrySeconds());
        }
        load.takeTest();
        return true;
    }

    /**
     * A session the HA peer admitted and replicated here holds one connection: counted without
     * checking limits or state (the active already did), so {@code leastconns} and the per-real
     * session counts start from the active's after a takeover. {@link #release} ends it.
     */
    public void holdReplicated() {
        load.hold();
    }

    /** A connection, flow or session of this real ended. Never takes conns below 0. */
    public void release() {
        load.release();
    }

    /** The real answered: ends the failure streak; a TESTING real goes back to OPERATIONAL. */
    public void onAnswered(long nowNs) {
        // Called per answer: write only when there is something to reset.
        FailStreak f = streak;
        if (!f.isEmpty()) {
            f.reset();
        }
        if (stored() == RealState.TESTING) {
            moveTo(RealState.TESTING, RealState.OPERATIONAL, "test connection answered");
        }
    }

    /**
     * An unanswered request or a reassign-worthy answer (in-band failure detection). Ignored when
     * {@code no faildetect inband}, or when the real is already FAILED or out of service (late
     * failures of old flows must not restart the retry timer). A real whose probes can confirm it
     * ({@link RealHealth#confirmWith}) becomes SUSPECT instead of FAILED when {@code faildetect} is
     * reached, and only a failed probe fails it.
     *
     * @param clientHash identifies the client, for {@code faildetect numclients}
     * @return true iff this call moved the real to FAILED
     */
    public boolean onFailure(long nowNs, int clientHash) {
        RealConfig c = config;
        if (!c.inbandFaildetect()) {
            return false;
        }
        RealState s = stored();
        if (s == RealState.TESTING) {
            load.failed();
            failedAtNs = nowNs;
            return moveTo(RealState.TESTING, RealState.FAILED, "test connection failed, retry in " + c.retrySeconds() + "s");
        }
        if (s != RealState.OPERATIONAL) {
            return false;
        }
        load.failed();
        String why = streak.record(c, clientHash);
        if (why != null && health.suspect(why)) {
            // a real with probes is failed only if they confirm it (one bad client must not fail it)
            streak.reset();
            return false;
        }
        if (why != null) {
            failedAtNs = nowNs;
            if (moveTo(RealState.OPERATIONAL, RealState.FAILED, why)) {
                streak.reset();
                return true;
            }
        }
        return false;
    }

    /** Explicit failure (operator, failaction, HA): to FAILED, retry timer (re)started. */
    public void fail(long nowNs, String reason) {
        while (true) {
            RealState s = stored();
            if (s == RealState.OUTOFSERVICE) {
                return;
            }
            failedAtNs = nowNs;
            if (s == RealState.FAILED || moveTo(s, RealState.FAILED, reason)) {
                streak.reset();
                return;
            }
        }
    }

    /**
     * The only way a stored state changes: CAS, then one listener call and one log line.
     *
     * @return false if the state was no longer {@code from}
     */
    private boolean moveTo(RealState from, RealState to, String reason) {
        if (!STORED.compareAndSet(this, from, to)) {
            return false;
        }
        transition(from, to, reason);
        return true;
    }

    private void transition(RealState from, RealState to, String reason) {
        LOG.info("real {} farm {}: {} -> {} ({})", label, farmName, from, to, reason);
        try {
            listener.onTransition(this, from, to, reason);
        } catch (RuntimeException e) {
            LOG.warn("real {} farm {}: state listener failed", label, farmName, e);
        }
    }

    public long activeConnections() {
        return load.conns();
    }

    public long clients() {
        return load.clients();
    }

    public void clientAdded() {
        load.clientAdded();
    }

    /** Never takes the count below 0. */
    public void clientRemoved() {
        load.clientRemoved();
    }

    /** Sets the sticky-client count, e.g. after counting a persisted sticky table at start. */
    public void setClients(long n) {
        load.setClients(n);
    }

    /** Total successful acquires (including test connections). */
    public long assignments() {
        return load.assignments();
    }

    /** Total failures that counted towards failure detection. */
    public long failures() {
        return load.failures();
    }

    @Override
    public String toString() {
        return "real " + label + " (" + farmName + ", " + state() + ")";
    }
}
