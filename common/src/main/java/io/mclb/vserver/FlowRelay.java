package io.mclb.vserver;

import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.net.DatagramEnvelopes;
import io.mclb.net.DropReason;
import io.mclb.overload.SessionGuard;
import io.mclb.select.Selection;
import io.mclb.select.StickyMode;
import io.mclb.sticky.StickyChangeListener;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * Plain UDP flow balancing for one virtual server on one event loop (no {@code service} keyword).
 *
 * <p>A flow is (client address+port) to (virtual address+port); the kernel's SO_REUSEPORT hash
 * sends every datagram of a flow to the same listener socket, hence to the same relay, so the
 * flow table needs no locks. The first datagram of a flow picks a real ({@link #selector}: client
 * rules, sticky entry, predictor, backup farm); later ones follow it. Answers from the real go back
 * from the virtual address. A flow that has sent {@code reassign} datagrams and heard nothing back
 * for {@link #UNANSWERED_NS} charges its real a failure (in-band failure detection) and moves to
 * another real: both conditions, because a busy flow always has several datagrams in flight.
 * Flows silent for {@code idle} seconds are forgotten.
 */
public final class FlowRelay extends Relay {
    private static final Logger LOG = LoggerFactory.getLogger(FlowRelay.class);
    /** Silence after which a flow's unanswered datagrams count as a failure of its real. */
    static final long UNANSWERED_NS = 2_000_000_000L;
    private static final long AGE_PERIOD_MS = 1000;

    private final Selection selection = new Selection();
    private final FlowIndex flows = new FlowIndex();
    private final ArrayList<FlowSocket> sockets = new ArrayList<>();
    /**
     * Per real: sockets that can take a new flow to it (they carried none when queued; checked
     * again when taken). Finding a socket for a new flow used to scan every socket, so at 16,000
     * flows over three reals each new flow cost a scan of about 5,000 sockets.
     */
    private final HashMap<InetSocketAddress, ArrayDeque<FlowSocket>> freeFor = new HashMap<>();
    /** On each socket's channel: its {@link FlowSocket}, found per answer without a map lookup. */
    private static final AttributeKey<FlowSocket> SOCKET = AttributeKey.valueOf("mclb.flow-socket");
    /** Upstream sockets written since the last flush, each once ({@link FlowSocket#dirty}). */
    private final ArrayList<FlowSocket> dirty = new ArrayList<>();
    /** {@code synguard}: a new flow is a new session of its client. */
    private final SessionGuard sessionGuard;

    FlowRelay(VirtualServer vs, io.netty.channel.EventLoop loop) {
        super(vs, loop, AGE_PERIOD_MS);
        this.sessionGuard = new SessionGuard(vs.metrics());
    }

    @Override
    protected boolean readsDirectly() {
        return true;
    }

    @Override
    protected void onClient(DatagramPacket packet, VserverSnapshot s) {
        InetSocketAddress client = packet.sender();
        long nowNs = batchNowNs();
        Flow flow = flows.get(client);
        if (flow == null) {
            if (!selector.admits(s, client.getAddress())) {
                drop(packet, DropReason.CLIENT_NOT_ALLOWED);
                return;
            }
            if (!sessionGuard.admits(s, client.getAddress(), nowNs)) {
                drop(packet, SessionGuard.CLIENT_RATE_LIMITED);
                return;
            }
            flow = newFlow(s, client, nowNs);
            if (flow == null) {
                drop(packet, DropReason.NO_REAL_AVAILABLE);
                return;
            }
        } else if (flow.unanswered >= flow.real.config().reassign() && nowNs - flow.unansweredSinceNs >= UNANSWERED_NS
                && flow.real.config().inbandFaildetect()) {
            if (!reassign(s, flow, nowNs)) {
                drop(packet, DropReason.NO_REAL_AVAILABLE);
                return;
            }
        }
        flow.lastSeenNs = nowNs;
        if (flow.unanswered++ == 0) {
            flow.unansweredSinceNs = nowNs;
        }
        flow.realRequests.increment();
        DropReason refused = flow.socket.send(envelopes, packet.content(), flow.target);
        if (refused == null) {
            if (flow.socket.ready()) {
                markDirty(flow.socket);
            }
        } else {
            drop(packet, refused);
        }
    }

    /** The client's sticky selection, or a plain one when the virtual server is not sticky. */
    private Selection selection(VserverSnapshot s, InetSocketAddress client, byte[] stickyKey) {
        selection.reset();
        if (s.config().sticky() != null) {
            if (stickyKey != null) {
                selection.stickyKey().copyFrom(stickyKey);
            } else {
                byte[] a = client.getAddress().getAddress();
                selection.stickyKey().setClientIp(vs.stickyGroup(), a,
                        Math.min(s.config().sticky().prefixLength(), a.length * 8));
            }
            selection.sticky(s.config().sticky().seconds(), StickyMode.ON_ASSIGN);
        }
        return selection;
    }

    private Flow newFlow(VserverSnapshot s, InetSocketAddress client, long nowNs) {
        Selection sel = selection(s, client, null);
        RealServer real = selector.select(s, sel, null, nowNs, clock.epochMillis());
        if (real == null) {
            return null;
        }
        Flow flow = new Flow(client, nowNs);
        if (sel.isSticky()) {
            flow.stickyKey = sel.stickyKey().bytes().clone();
        }
        if (!bind(flow, real)) {
            real.release();
            return null;
        }
        flows.put(client, flow);
        vs.flowsActive().incrementAndGet();
        metrics().assignments.increment();
        return flow;
    }

    /** Moves a flow whose real stopped answering; charges the old real a failure. */
    private boolean reassign(VserverSnapshot s, Flow flow, long nowNs) {
        RealServer old = flow.real;
        old.onFailure(nowNs, flow.client.hashCode());
        metrics().countReassignment("unanswered");
        Selection sel = selection(s, flow.client, flow.stickyKey);
        if (sel.isSticky()) {
            // the entry still names the failing real: drop it so the selection re-points it
            vs.stickyTable().remove(sel.stickyKey(), StickyChangeListener.RemoveReason.PURGED);
        }
        RealServer next = selector.select(s, sel, old, nowNs, clock.epochMillis());
        if (next == null) {
            return false;
        }
        unbind(flow);
        old.release();
        if (!bind(flow, next)) {
            next.release();
            removeFlow(flow, false);
            return false;
        }
        return true;
    }

    private boolean bind(Flow flow, RealServer real) {
        InetSocketAddress target = targetOf(real);
        FlowSocket up = socketFor(target);
        if (up == null) {
            return false;
        }
        flow.real = real;
        flow.target = target;
        flow.socket = up;
        flow.unanswered = 0;
        flow.realRequests = vs.realRequests(real);
        up.byTarget.put(target, flow);
        return true;
    }

    private void unbind(Flow flow) {
        FlowSocket u = flow.socket;
        if (u != null) {
            u.byTarget.remove(flow.target);
            flow.socket = null;
            ArrayDeque<FlowSocket> free = freeFor.get(flow.target);
            if (free != null && !u.closed) {
                free.addLast(u);
            }
        }
    }

    /** A socket that carries no flow to {@code target} yet; opens one when all are taken. */
    private FlowSocket socketFor(InetSocketAddress target) {
        ArrayDeque<FlowSocket> free = freeFor.get(target);
        if (free == null) {
            free = new ArrayDeque<>(sockets);
            freeFor.put(target, free);
        }
        FlowSocket candidate;
        while ((candidate = free.pollFirst()) != null) {
            if (!candidate.closed && !candidate.byTarget.containsKey(target)
                    && (candidate.channel.isActive() || !candidate.ready())) {
                return candidate;
            }
        }
        ChannelFuture f = bindUpstream(target.getAddress(), 0);
        if (f.isDone() && !f.isSuccess()) {
            LOG.warn("vserver {}: cannot open an upstream socket: {}", vs.name(), f.cause().toString());
            return null;
        }
        FlowSocket u = new FlowSocket(f.channel(), f.isDone());
        f.channel().attr(SOCKET).set(u);
        if (!f.isDone()) {
            f.addListener(done -> {
                if (done.isSuccess()) {
                    u.bound();
                } else {
                    LOG.warn("vserver {}: cannot bind an upstream socket: {}", vs.name(), done.cause().toString());
                    u.closed = true;
                    int lost = u.failed();
                    for (int i = 0; i < lost; i++) {
                        metrics().countDrop(DropReason.UPSTREAM_UNAVAILABLE);
                    }
                    sockets.remove(u);
                }
            });
        }
        sockets.add(u);
        // a new socket carries no flow yet: every other real may use it too
        for (Map.Entry<InetSocketAddress, ArrayDeque<FlowSocket>> e : freeFor.entrySet()) {
            if (!e.getKey().equals(target)) {
                e.getValue().addLast(u);
            }
        }
        return u;
    }

    @Override
    protected void onReal(Channel upstream, int socket, DatagramPacket packet) {
        FlowSocket up = upstream.attr(SOCKET).get();
        Flow flow = up == null ? null : up.byTarget.get(packet.sender());
        if (flow == null) {
            drop(packet, DropReason.UNKNOWN_RESPONSE);
            return;
        }
        long nowNs = batchNowNs();
        flow.lastSeenNs = nowNs;
        flow.real.metrics().responded();
        if (flow.unanswered != 0) {
            flow.unanswered = 0;
            flow.real.onAnswered(nowNs);
        } else if (flow.real.state() == RealState.TESTING) {
            flow.real.onAnswered(nowNs);
        }
        toClient(packet.content(), flow.client);
    }

    @Override
    protected void age() {
        long nowNs = clock.nanoTime();
        VserverSnapshot s = vs.snapshot();
        long idleNs = s.config().idleSeconds() * 1_000_000_000L;
        flows.removeIf(f -> nowNs - f.lastSeenNs >= idleNs, f -> endFlow(f, s));
        closeIdleSockets();
    }

    private void removeFlow(Flow f, boolean release) {
        flows.remove(f.client);
        unbind(f);
        vs.flowsActive().decrementAndGet();
        if (release && f.real != null) {
            f.real.release();
        }
    }

    private void endFlow(Flow f, VserverSnapshot s) {
        unbind(f);
        vs.flowsActive().decrementAndGet();
        f.real.release();
        if (f.stickyKey != null && s.config().sticky() != null) {
            // IOS: the sticky timer runs from the end of the client's last connection
            selector.touch(selection.stickyKey().copyFrom(f.stickyKey), f.real.id(), s.config().sticky().seconds(),
                    clock.epochMillis());
        }
    }

    private void closeIdleSockets() {
        // keep one socket; close the rest once they carry no flow (one pass, not a remove per socket)
        boolean any = false;
        for (int i = 1, n = sockets.size(); i < n; i++) {
            FlowSocket u = sockets.get(i);
            if (u.byTarget.isEmpty()) {
                u.closed = true;
                u.channel.close();
                any = true;
            }
        }
        if (any) {
            sockets.removeIf(u -> u.closed);
            for (ArrayDeque<FlowSocket> free : freeFor.values()) {
                free.removeIf(u -> u.closed);
            }
        }
    }

    /** Number of flows on this loop (tests, show). Call on the loop. */
    int flowCount() {
        return flows.size();
    }

    @Override
    protected void closeRelay() {
        VserverSnapshot s = vs.snapshot();
        flows.forEach(f -> endFlow(f, s));
        flows.clear();
        for (FlowSocket u : sockets) {
            u.channel.close();
        }
        sockets.clear();
    }

    /** A flag on the socket, not a scan of the list: a batch writes to up to one socket per flow. */
    private void markDirty(FlowSocket u) {
        if (!u.dirty) {
            u.dirty = true;
            dirty.add(u);
        }
    }

    @Override
    protected void flushUpstreams() {
        for (int i = 0, n = dirty.size(); i < n; i++) {
            FlowSocket u = dirty.get(i);
            u.dirty = false;
            DatagramEnvelopes.flush(u.channel);
        }
        dirty.clear();
    }

    @Override
    protected void listConnections(java.util.function.Predicate<InetSocketAddress> wanted, int limit,
                                   java.util.List<Connection> into) {
        long now = clock.nanoTime();
        flows.forEach(f -> {
            if (into.size() < limit && wanted.test(f.client)) {
                long idle = (now - f.lastSeenNs) / 1_000_000;
                into.add(new Connection(vs.name(), vipPort(), f.client, f.real, "ESTAB", (now - f.createdNs) / 1_000_000, idle,
                        "unanswered " + f.unanswered + ", to " + f.target));
            }
        });
    }
}
