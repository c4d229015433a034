package io.mclb.ha.group;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;

/**
 * The state machine of one HSRP-style group (RFC 2281 section 6, restated in reference/hsrp.md
 * section 6), driven by {@link #tick}, {@link #onHello} and {@link #onProbeReply} with the time
 * passed in; it does no I/O itself: what it sends and every state change go to an {@link Outbox}.
 *
 * <p>Timers (RFC 2281 section 6.2): the <em>active timer</em> ({@link #activeDeadlineNs}, restarted by
 * every hello from the active peer with that hello's hold time), the <em>standby timer</em>
 * ({@link #standbyDeadlineNs}, restarted by hellos from a better Speak/Standby peer) and the
 * <em>hello timer</em>.
 *
 * <p>mclb's additions (reference/hsrp.md section 9, Equalizer and LocalDirector practice) to the
 * takeover when the active timer expires:
 * <ol>
 * <li><b>connectivity</b>: while the peer's last hello is younger than {@value #CONNECTIVITY_VETO_HOLDS}
 *     hold times and reported a better connectivity score than ours, we are the side that lost its
 *     links: withhold (counted). After that the peer's report is void (a dead peer is never better).</li>
 * <li><b>the virtual address still answers</b>: a {@link Hello.Type#PROBE} goes to the virtual address
 *     and to every peer; a PROBE_REPLY from a node in Active within the probe timeout (half the hold time, at
 *     least one hello period) withholds the
 *     takeover and restarts the active timer (the hellos were lost, the peer is alive: no split brain).</li>
 * </ol>
 * A Standby takes over only after hearing the active (hellos established). A node that never heard a
 * peer becomes active only by the cold-start path: one hold in Listen, one in Speak, then the probe
 * (LocalDirector: a unit alone comes up active; otherwise a pair whose other half is down never serves).
 * No fail-back without {@code preempt}; with it, only after {@code preempt delay minimum} since start.
 *
 * <p>LocalDirector's failover layer (seed 000, {@link FailoverMonitor}): when the peer's hellos stop,
 * the Standby (before taking over) and the Active (its established standby went silent) run the
 * interface tests; a node whose own tests fail goes <b>Failed</b> (HSRP Init: silent, address released,
 * never takes over) until its link returns or {@link #reset} finds the cause gone. An orderly stop hands
 * over at once (RESIGN) or, with no handover, sends STOP: the peer then does not take over (seed 002).
 *
 * <p>Not thread-safe: one thread (the group manager's) calls everything; {@link #state()} may be read
 * from any thread.
 */
public final class StandbyGroup {
    private static final Logger LOG = LoggerFactory.getLogger(StandbyGroup.class);
    static final int CONNECTIVITY_VETO_HOLDS = 3;
    static final int FORCED_PRIORITY = Election.FORCED_PRIORITY;
    static final long MS = 1_000_000L;

    /** Where the state machine's effects go: the group manager sends them and moves the address. */
    public interface Outbox {
        void send(Hello h);

        /** Sends a PROBE to the virtual address and to every peer. */
        void probe(Hello probe);

        void transitioned(StandbyGroup g, HsrpState from, HsrpState to, String reason, long nowNs);

        /** A takeover was withheld (reason {@code connectivity} or {@code vip_answers}). */
        default void withheld(StandbyGroup g, String reason) {
        }
    }

    /** Replaced by {@link #reconfigure}; read by other threads through {@link #config()}. */
    private volatile GroupConfig cfg;
    private final Outbox out;
    private final LinkState links;
    private final long bootId;
    private long sequence;
    private volatile HsrpState state = HsrpState.INITIAL;
    private long stateSinceNs;
    private long startedNs;
    private long activeSinceNs;
    private long activeDeadlineNs;
    private long standbyDeadlineNs;
    private long helloDueNs;
    private long probeDeadlineNs;
    private boolean withholding;
    private boolean forced;
    /** {@code no failover active}: given up by the operator; no preempt until reset or forced again. */
    private boolean yielded;
    private final FailoverMonitor failover;
    private volatile String lastReason = "";
    private InetAddress vip;
    private volatile Hello peer;
    private volatile long peerHeardNs;
    private boolean peerActive;

    /**
     * @param bootId this node's start time in epoch ms (see {@link Hello#bootId()})
     */
    public StandbyGroup(GroupConfig cfg, LinkState links, long bootId, Outbox out) {
        this(cfg, links, InterfaceTestIo.linkOnly(links), bootId, out);
    }

    /** @param tests the interface tests' primitives (LocalDirector's link, network activity, ARP, broadcast ping) */
    public StandbyGroup(GroupConfig cfg, LinkState links, InterfaceTestIo tests, long bootId, Outbox out) {
        this.cfg = cfg;
        this.links = links;
        this.bootId = bootId;
        this.out = out;
        this.vip = cfg.vip();
        this.failover = new FailoverMonitor(tests);
    }

    /** Event a: the group is configured on an interface that is up. */
    public void start(long nowNs) {
        restart(nowNs, "group started");
    }

    private void restart(long nowNs, String reason) {
        startedNs = nowNs;
        activeDeadlineNs = nowNs + cfg.holdMs() * MS;
        standbyDeadlineNs = activeDeadlineNs;
        transition(vip == null ? HsrpState.LEARN : HsrpState.LISTEN, nowNs, reason);
    }

    /**
     * A reload changed this group's priority, preempt, timers, key, tracks or peers: they apply from
     * now. The next hello carries the new priority, so the peer re-runs its preempt check, and this
     * node runs its own on the next tick. A shorter hello period applies at once.
     *
     * @throws IllegalArgumentException if {@code next} is another group ({@link GroupConfig#sameIdentity})
     */
    public void reconfigure(GroupConfig next, long nowNs) {
        if (!cfg.sameIdentity(next)) {
            throw new IllegalArgumentException("group " + cfg.name() + ": " + next + " is not the same group");
        }
        GroupConfig before = cfg;
        cfg = next;
        helloDueNs = Math.min(helloDueNs, nowNs + next.helloMs() * MS);
        LOG.info("group {}: reconfigured from [{}] to [{}]", next.name(), before, next);
    }

    /** Event b: the group stops; an active node resigns first so the standby need not wait for the hold time. */
    public void stop(long nowNs) {
        stop(nowNs, true);
    }

    /**
     * An orderly stop. {@code handover}: an active node resigns (the standby takes over at once);
     * without: it sends STOP after leaving Active, and the standby stays standby (seed 002: no takeover
     * after an orderly stop) until this node returns or an operator forces it active.
     */
    public void stop(long nowNs, boolean handover) {
        boolean wasActive = state == HsrpState.ACTIVE;
        if (wasActive && handover) {
            out.send(message(Hello.Type.RESIGN, nowNs));
        }
        transition(HsrpState.INITIAL, nowNs, handover ? "group stopped" : "group stopped without handover");
        if (wasActive && !handover) {
            out.send(message(Hello.Type.STOP, nowNs));
        }
    }

    /** Timers: call at least every few milliseconds (the manager ticks at a fifth of the hello period). */
    public void tick(long nowNs) {
        if (failover.failed()) {
            if (failover.linkRecovered(cfg.iface())) {
                failover.clear();
                restart(nowNs, "failover: link up again on " + cfg.iface() + ": autorecovered from Failed");
            }
            return;
        }
        switch (state) {
            case LISTEN -> {
                if (nowNs >= standbyDeadlineNs) {
                    transition(HsrpState.SPEAK, nowNs, "no better standby heard for the hold time");
                }
            }
            case SPEAK, STANDBY -> {
                if (state == HsrpState.SPEAK && nowNs >= standbyDeadlineNs) {
                    transition(HsrpState.STANDBY, nowNs, "no better candidate heard for the hold time");
                }
                if (nowNs >= activeDeadlineNs) {
                    takeOver(nowNs);
                }
            }
            case ACTIVE -> monitorStandby(nowNs);
            default -> {
            }
        }
        preempt(nowNs);
        if ((state == HsrpState.SPEAK || state == HsrpState.STANDBY || state == HsrpState.ACTIVE)
                && nowNs >= helloDueNs) {
            helloDueNs = nowNs + cfg.helloMs() * MS;
            out.send(message(Hello.Type.HELLO, nowNs));
        }
    }

    /** A hello or resign that passed authentication, peer and replay checks. */
    public void onHello(Hello h, long nowNs) {
        peer = h;
        peerHeardNs = nowNs;
        if (failover.failed()) {
            return; // Failed: silent and out of the election until autorecovery or reset
        }
        if (h.type() == Hello.Type.STOP) {
            peerActive = false;
            failover.peerLost();
            LOG.warn("group {}: active peer {} stopped without handover: this node stays {} (no takeover after an "
                    + "orderly stop) until the peer returns or 'mclb failover active'", cfg.name(),
                    h.sender().getHostAddress(), state.label());
            return;
        }
        if (h.type() == Hello.Type.HELLO) {
            failover.heard();
        }
        if (h.type() == Hello.Type.RESIGN) {
            peerActive = false;
            if (state == HsrpState.STANDBY) {
                transition(HsrpState.ACTIVE, nowNs, "active peer " + h.sender().getHostAddress() + " resigned");
            } else {
                activeDeadlineNs = nowNs;
            }
            return;
        }
        boolean better = peerBetter(h);
        if (h.state() == HsrpState.ACTIVE) {
            peerActive = true;
            if (state == HsrpState.LEARN && h.vip() != null) {
                vip = h.vip();
                transition(HsrpState.LISTEN, nowNs, "learned virtual address " + vip.getHostAddress());
            }
            if (state == HsrpState.ACTIVE) {
                if (better) {
                    // RFC 2281 event g: another active with higher priority -> Speak, restart timers A and B
                    activeDeadlineNs = nowNs + h.holdMs() * MS;
                    standbyDeadlineNs = nowNs + cfg.holdMs() * MS;
                    transition(HsrpState.SPEAK, nowNs, "active peer " + h.sender().getHostAddress()
                            + " has higher priority " + wirePriority(h));
                } else {
                    helloDueNs = nowNs; // event h: answer at once so the worse active yields
                }
                return;
            }
            activeDeadlineNs = nowNs + h.holdMs() * MS;
            probeDeadlineNs = 0;
            withholding = false;
            return;
        }
        if ((h.state() == HsrpState.SPEAK || h.state() == HsrpState.STANDBY) && better && state != HsrpState.ACTIVE) {
            standbyDeadlineNs = nowNs + h.holdMs() * MS;
            if (state == HsrpState.SPEAK || state == HsrpState.STANDBY) {
                // events f and k: a better candidate speaks -> Listen
                transition(HsrpState.LISTEN, nowNs, "peer " + h.sender().getHostAddress() + " in "
                        + h.state().label() + " has higher priority " + wirePriority(h));
            }
        }
    }

    /** An authenticated answer to our probe. */
    public void onProbeReply(Hello h, long nowNs) {
        peer = h;
        peerHeardNs = nowNs;
        if (probeDeadlineNs != 0 && h.state() == HsrpState.ACTIVE) {
            probeDeadlineNs = 0;
            activeDeadlineNs = nowNs + h.holdMs() * MS;
            peerActive = true;
            failover.probeAnswered();
            withhold(HaMetrics.WITHHELD_VIP_ANSWERS,
                    "the virtual address is answered by active peer " + h.sender().getHostAddress());
        }
    }

    /**
     * {@code mclb failover active}: active now, and above any priority until {@link #reset}.
     *
     * @return null, or why not (a Failed node must be reset first)
     */
    public String forceActive(long nowNs) {
        if (failover.failed()) {
            return "group " + cfg.name() + " is Failed (" + failover.failedReason() + "): 'mclb failover reset' first";
        }
        forced = true;
        yielded = false;
        helloDueNs = nowNs;
        transition(HsrpState.ACTIVE, nowNs, "operator: failover active");
        return null;
    }

    /**
     * {@code mclb failover reset}: clears the forced and given-up states and, once its cause is gone,
     * Failed (the node re-enters the election from Listen); the node keeps its role otherwise and the
     * normal rules apply from here (a better peer with preempt takes over after its delay).
     *
     * @return null, or what still keeps the node Failed (it stays Failed)
     */
    public String reset(long nowNs) {
        forced = false;
        yielded = false;
        helloDueNs = nowNs;
        if (failover.failed()) {
            String still = failover.causeRemains(cfg.iface());
            if (still != null) {
                return "group " + cfg.name() + " stays Failed: " + still;
            }
            String was = failover.failedReason();
            failover.clear();
            restart(nowNs, "operator: failover reset (Failed by: " + was + "; cause gone)");
        }
        LOG.info("group {}: failover reset by operator, state {}", cfg.name(), state.label());
        return null;
    }

    /**
     * {@code no failover active} ({@code mclb failover standby}): an Active node resigns to its standby
     * and stays out of the active role (no preempt) until {@link #reset} or {@link #forceActive}; it
     * still takes over if the new active falls silent.
     *
     * @return null, or why not: not active, or no standby heard that would take over
     */
    public String yieldActive(long nowNs) {
        if (state != HsrpState.ACTIVE) {
            return "group " + cfg.name() + " is " + state.label() + " here, not Active";
        }
        Hello p = peer;
        if (p == null || nowNs - peerHeardNs >= p.holdMs() * MS
                || (p.state() != HsrpState.STANDBY && p.state() != HsrpState.SPEAK)) {
            return "group " + cfg.name() + ": no standby peer is heard that would take over; staying Active";
        }
        forced = false;
        yielded = true;
        out.send(message(Hello.Type.RESIGN, nowNs));
        transition(HsrpState.SPEAK, nowNs, "operator: no failover active (handed over to "
                + p.sender().getHostAddress() + ")");
        return null;
    }

    /** The one place the state changes: counted and logged once by the outbox. */
    void transition(HsrpState to, long nowNs, String reason) {
        HsrpState from = state;
        if (from == to) {
            return;
        }
        state = to;
        stateSinceNs = nowNs;
        lastReason = reason;
        probeDeadlineNs = 0;
        withholding = false;
        switch (to) {
            case SPEAK -> {
                // give the election one hold time before anyone may claim the address
                standbyDeadlineNs = Math.max(standbyDeadlineNs, nowNs + cfg.holdMs() * MS);
                activeDeadlineNs = Math.max(activeDeadlineNs, nowNs + cfg.holdMs() * MS);
                helloDueNs = nowNs;
            }
            case STANDBY -> helloDueNs = nowNs;
            case ACTIVE -> {
                activeSinceNs = nowNs;
                peerActive = false;
                helloDueNs = nowNs;
            }
            default -> {
            }
        }
        out.transitioned(this, from, to, reason, nowNs);
    }

    private void takeOver(long nowNs) {
        Hello p = peer;
        if (p != null && p.type() == Hello.Type.STOP) {
            return; // the active stopped without handover (seed 002): no takeover
        }
        // the probe of the virtual address runs alongside the interface tests: both only listen, and in
        // sequence they added the probe timeout to every failover
        if (probeDeadlineNs == 0) {
            probeDeadlineNs = nowNs + probeTimeoutMs(cfg) * MS;
            out.probe(message(Hello.Type.PROBE, nowNs));
        }
        switch (failover.diagnose(cfg, p == null ? null : p.sender(), nowNs)) {
            case RUNNING -> {
                return;
            }
            case FAILED -> {
                fail(nowNs);
                return;
            }
            default -> {
            }
        }
        int own = score();
        if (p != null && p.score() > own && nowNs - peerHeardNs < CONNECTIVITY_VETO_HOLDS * (long) p.holdMs() * MS) {
            withhold(HaMetrics.WITHHELD_CONNECTIVITY,
                    "own connectivity " + own + " is below the peer's last reported " + p.score());
            if (nowNs >= probeDeadlineNs) {
                probeDeadlineNs = 0; // once the veto lapses the takeover needs a fresh silent probe
            }
            return;
        }
        if (nowNs >= probeDeadlineNs) {
            transition(HsrpState.ACTIVE, nowNs, (peerActive || p != null
                    ? "active timer expired (no hello from the active peer for the hold time; virtual address silent)"
                    : "no peer heard since start (virtual address silent)")
                    + "; interface tests: " + failover.lastTests());
            failover.peerLost();
        }
    }

    /** Active: the established standby's hellos stopped for its hold time; the interface tests say which side failed. */
    private void monitorStandby(long nowNs) {
        Hello p = peer;
        if (p == null || failover.waiting() || nowNs - peerHeardNs < p.holdMs() * MS) {
            return;
        }
        switch (failover.diagnose(cfg, p.sender(), nowNs)) {
            case FAILED -> fail(nowNs);
            case PASSED -> {
                LOG.warn("group {}: standby peer {} silent; own interface tests passed ({}): staying Active, "
                        + "waiting for the peer", cfg.name(), p.sender().getHostAddress(), failover.lastTests());
                failover.peerLost();
            }
            default -> {
            }
        }
    }

    /** Own interface tests failed: Failed, silent (Init), the address released; an active node resigns first. */
    private void fail(long nowNs) {
        failover.fail(cfg.iface());
        if (state == HsrpState.ACTIVE) {
            out.send(message(Hello.Type.RESIGN, nowNs));
        }
        forced = false;
        transition(HsrpState.INITIAL, nowNs, "failover: own interface tests failed (" + failover.failedReason()
                + "): Failed, not taking the active role");
    }

    /** How long a takeover waits for a PROBE_REPLY: half the hold time, at least one hello period. */
    static long probeTimeoutMs(GroupConfig c) {
        return Math.max(c.helloMs(), c.holdMs() / 2);
    }

    private void withhold(String reason, String why) {
        if (!withholding) {
            withholding = true;
            LOG.warn("group {}: takeover withheld: {}", cfg.name(), why);
            out.withheld(this, reason);
        }
    }

    private void preempt(long nowNs) {
        Hello p = peer;
        if (!cfg.preempt() || yielded || p == null || !peerActive || nowNs >= activeDeadlineNs || state == HsrpState.ACTIVE
                || state == HsrpState.INITIAL || state == HsrpState.LEARN
                || nowNs - startedNs < cfg.preemptDelayMs() * MS || peerBetter(p)) {
            return;
        }
        transition(HsrpState.ACTIVE, nowNs, "preempt: priority " + effectivePriority() + " over active peer "
                + p.sender().getHostAddress() + "'s " + wirePriority(p));
    }

    /** Whether the sender of {@code h} wins an election against this node: forced, priority, then address. */
    boolean peerBetter(Hello h) {
        return Election.peerBetter(forced ? FORCED_PRIORITY : effectivePriority(), cfg.address(), h);
    }

    private static int wirePriority(Hello h) {
        return Election.wirePriority(h);
    }

    /** Configured priority less the decrement of every tracked interface that is down, at least 0. */
    public int effectivePriority() {
        return Election.effectivePriority(cfg, links);
    }

    /** Per mille of this node's links up: the group's interface and every tracked one. */
    public int score() {
        return Election.score(cfg, links);
    }

    Hello message(Hello.Type type, long nowNs) {
        return new Hello(type, cfg.group(), state, effectivePriority(), forced, score(), cfg.helloMs(), cfg.holdMs(),
                bootId, ++sequence, state == HsrpState.ACTIVE ? (nowNs - activeSinceNs) / MS : 0, cfg.address(), vip);
    }

    /** A PROBE_REPLY carrying this node's state. */
    public Hello probeReply(long nowNs) {
        return message(Hello.Type.PROBE_REPLY, nowNs);
    }

    public HsrpState state() {
        return state;
    }

    public GroupConfig config() {
        return cfg;
    }

    public boolean forced() {
        return forced;
    }

    /** LocalDirector's Failed: this node's own interface tests failed; it stays out until recovered or reset. */
    public boolean failed() {
        return failover.failed();
    }

    /** Why this node is Failed ({@link #failed}), whether it is Waiting, the last test outcome. */
    public FailoverMonitor failover() {
        return failover;
    }

    /** LocalDirector's name of this node's role: {@code Failed}, {@code Active} or {@code Standby} (any other state). */
    public String failoverState() {
        return failover.failed() ? "Failed" : state == HsrpState.ACTIVE ? "Active" : "Standby";
    }

    /** The reason of the last state change. */
    public String lastReason() {
        return lastReason;
    }

    /** The virtual address, configured or learned; null while learning. */
    public InetAddress vip() {
        return vip;
    }

    /** The last message heard from a peer, or null. */
    public Hello peer() {
        return peer;
    }

    public long peerHeardNs() {
        return peerHeardNs;
    }

    /** Whether a peer is active now: its hellos arrive and said Active within the hold time. */
    public boolean peerActive(long nowNs) {
        Hello p = peer;
        return p != null && p.state() == HsrpState.ACTIVE && nowNs - peerHeardNs < p.holdMs() * MS;
    }

    public long stateSinceNs() {
        return stateSinceNs;
    }

    /** How long this node has been active, in ms (0 when not active). */
    public long activeForMs(long nowNs) {
        return state == HsrpState.ACTIVE ? (nowNs - activeSinceNs) / MS : 0;
    }
}
