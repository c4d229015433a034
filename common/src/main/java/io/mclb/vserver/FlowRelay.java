package io.mclb.vserver;

import io.mclb.farm.RealServer;
import io.mclb.metrics.VserverMetrics;
import io.mclb.net.DropReason;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.time.NanoClock;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Iterator;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Plain UDP flow balancing for one virtual server on one event loop (no {@code service} keyword).
 *
 * <p>A flow is (client address+port) to (virtual address+port); the kernel's SO_REUSEPORT hash
 * sends every datagram of a flow to the same listener socket, hence to the same relay, so the
 * flow table needs no locks. The first datagram of a flow picks a real (sticky entry, predictor,
 * backup farm); later ones follow it. Answers from the real go back from the virtual address.
 * A flow that has sent {@code reassign} datagrams and heard nothing back for
 * {@link #UNANSWERED_NS} charges its real a failure (in-band failure detection) and moves to
 * another real: both conditions, because a busy flow always has several datagrams in flight. Flows silent for {@code idle} seconds are
 * forgotten. Everything here runs on {@link #loop}; datagrams never throw out of it.
 */
public final class FlowRelay extends ChannelInboundHandlerAdapter implements Relay {
    private static final Logger LOG = LoggerFactory.getLogger(FlowRelay.class);
    /** Silence after which a flow's unanswered datagrams count as a failure of its real. */
    static final long UNANSWERED_NS = 2_000_000_000L;

    private final VirtualServer vs;
    private final EventLoop loop;
    private final NanoClock clock;
    private final Bootstrap upstreamBootstrap;
    private final Assigner assigner;
    private final StickyKey stickyKey = new StickyKey();
    private final HashMap<InetSocketAddress, Flow> flows = new HashMap<>();
    private final ArrayList<UpstreamSocket> upstreams = new ArrayList<>();
    /**
     * Per real: sockets that can take a new flow to it (they carried none when queued; checked
     * again when taken). Finding a socket for a new flow used to scan every socket, so at 16,000
     * flows over three reals each new flow cost a scan of about 5,000 sockets.
     */
    private final HashMap<InetSocketAddress, ArrayDeque<UpstreamSocket>> freeFor = new HashMap<>();
    private final ArrayList<Channel> dirty = new ArrayList<>();
    private Channel vip;
    private ScheduledFuture<?> ager;
    private boolean vipDirty;
    private boolean warnedInternal;

    FlowRelay(VirtualServer vs, EventLoop loop, Bootstrap upstreamBootstrap) {
        this.vs = vs;
        this.loop = loop;
        this.clock = vs.clock();
        this.upstreamBootstrap = upstreamBootstrap;
        this.assigner = new Assigner(vs.stickyTable());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        vip = ctx.channel();
        ager = loop.scheduleAtFixedRate(this::age, 1, 1, TimeUnit.SECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            io.netty.util.ReferenceCountUtil.release(msg);
            return;
        }
        try {
            onClientDatagram(packet);
        } catch (Throwable t) {
            packet.release();
            internalError(t);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushUpstreams();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        internalError(cause);
    }

    private void onClientDatagram(DatagramPacket packet) {
        VserverMetrics m = vs.metrics();
        m.requests.increment();
        VserverSnapshot s = vs.snapshot();
        ByteBuf content = packet.content();
        if (content.readableBytes() > VirtualServer.MAX_DATAGRAM) {
            drop(packet, DropReason.OVERSIZED);
            return;
        }
        if (!vs.serving()) {
            drop(packet, DropReason.OUT_OF_SERVICE);
            return;
        }
        InetSocketAddress client = packet.sender();
        long nowNs = clock.nanoTime();
        Flow flow = flows.get(client);
        if (flow == null) {
            if (!s.config().admits(client.getAddress().getAddress())) {
                drop(packet, DropReason.CLIENT_NOT_ALLOWED);
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
        if (flow.upstream.send(new DatagramPacket(content, flow.target))) {
            if (flow.upstream.ready()) {
                markDirty(flow.upstream.channel);
            }
        } else {
            drop(packet, DropReason.UPSTREAM_UNAVAILABLE);
        }
    }

    private Flow newFlow(VserverSnapshot s, InetSocketAddress client, long nowNs) {
        StickyKey key = null;
        int stickySeconds = 0;
        if (s.config().sticky() != null) {
            key = stickyKey.setClientIp(vs.stickyGroup(), client.getAddress().getAddress(),
                    prefixFor(client, s.config().sticky().prefixLength()));
            stickySeconds = s.config().sticky().seconds();
        }
        RealServer real = assigner.assign(s, key, stickySeconds, null, nowNs, clock.epochMillis());
        if (real == null) {
            return null;
        }
        Flow flow = new Flow(client);
        if (key != null) {
            flow.stickyKey = key.bytes().clone();
        }
        if (!bind(flow, real, s)) {
            real.release();
            return null;
        }
        flows.put(client, flow);
        vs.flowsActive().incrementAndGet();
        vs.metrics().assignments.increment();
        return flow;
    }

    private static int prefixFor(InetSocketAddress client, int configured) {
        int bits = client.getAddress().getAddress().length * 8;
        return Math.min(configured, bits);
    }

    /** Moves a flow whose real stopped answering; charges the old real a failure. */
    private boolean reassign(VserverSnapshot s, Flow flow, long nowNs) {
        RealServer old = flow.real;
        old.onFailure(nowNs, flow.client.hashCode());
        vs.metrics().countReassignment("unanswered");
        StickyKey key = null;
        int stickySeconds = 0;
        if (flow.stickyKey != null && s.config().sticky() != null) {
            key = stickyKey.copyFrom(flow.stickyKey);
            // the entry still names the failing real: drop it so the assigner re-points it
            vs.stickyTable().remove(key, StickyChangeListener.RemoveReason.PURGED);
            stickySeconds = s.config().sticky().seconds();
        }
        RealServer next = assigner.assign(s, key, stickySeconds, old, nowNs, clock.epochMillis());
        if (next == null) {
            return false;
        }
        unbind(flow);
        old.release();
        if (!bind(flow, next, s)) {
            next.release();
            removeFlow(flow, false);
            return false;
        }
        return true;
    }

    private boolean bind(Flow flow, RealServer real, VserverSnapshot s) {
        InetSocketAddress target = vs.targetOf(real);
        UpstreamSocket up = upstreamFor(target);
        if (up == null) {
            return false;
        }
        flow.real = real;
        flow.target = target;
        flow.upstream = up;
        flow.unanswered = 0;
        flow.realRequests = vs.realRequests(real);
        up.byTarget.put(target, flow);
        return true;
    }

    private void unbind(Flow flow) {
        UpstreamSocket u = flow.upstream;
        if (u != null) {
            u.byTarget.remove(flow.target);
            flow.upstream = null;
            ArrayDeque<UpstreamSocket> free = freeFor.get(flow.target);
            if (free != null && !u.closed) {
                free.addLast(u);
            }
        }
    }

    /** A socket that carries no flow to {@code target} yet; opens one when all are taken. */
    private UpstreamSocket upstreamFor(InetSocketAddress target) {
        ArrayDeque<UpstreamSocket> free = freeFor.get(target);
        if (free == null) {
            free = new ArrayDeque<>(upstreams);
            freeFor.put(target, free);
        }
        UpstreamSocket candidate;
        while ((candidate = free.pollFirst()) != null) {
            if (!candidate.closed && !candidate.byTarget.containsKey(target)
                    && (candidate.channel.isActive() || !candidate.ready())) {
                return candidate;
            }
        }
        ChannelFuture f = upstreamBootstrap.clone().group(loop).handler(new UpstreamHandler())
                .bind(new InetSocketAddress(vs.upstreamBindAddress(target), 0));
        if (f.isDone() && !f.isSuccess()) {
            LOG.warn("vserver {}: cannot open an upstream socket: {}", vs.name(), f.cause().toString());
            return null;
        }
        UpstreamSocket u = new UpstreamSocket(f.channel(), f.isDone());
        f.channel().attr(VirtualServer.UPSTREAM).set(u);
        if (!f.isDone()) {
            f.addListener(done -> {
                if (done.isSuccess()) {
                    u.bound();
                } else {
                    LOG.warn("vserver {}: cannot bind an upstream socket: {}", vs.name(), done.cause().toString());
                    u.closed = true;
                    int lost = u.failed();
                    for (int i = 0; i < lost; i++) {
                        vs.metrics().countDrop(DropReason.UPSTREAM_UNAVAILABLE);
                    }
                    upstreams.remove(u);
                }
            });
        }
        upstreams.add(u);
        // a new socket carries no flow yet: every other real may use it too
        for (Map.Entry<InetSocketAddress, ArrayDeque<UpstreamSocket>> e : freeFor.entrySet()) {
            if (!e.getKey().equals(target)) {
                e.getValue().addLast(u);
            }
        }
        return u;
    }

    private void onRealDatagram(UpstreamSocket up, DatagramPacket packet) {
        Flow flow = up.byTarget.get(packet.sender());
        if (flow == null) {
            drop(packet, DropReason.UNKNOWN_RESPONSE);
            return;
        }
        long nowNs = clock.nanoTime();
        flow.lastSeenNs = nowNs;
        if (flow.unanswered != 0) {
            flow.unanswered = 0;
            flow.real.onAnswered(nowNs);
        } else if (flow.real.state() == io.mclb.farm.RealState.TESTING) {
            flow.real.onAnswered(nowNs);
        }
        vs.metrics().responses.increment();
        vip.write(new DatagramPacket(packet.content(), flow.client), vip.voidPromise());
        vipDirty = true;
    }

    private void age() {
        try {
            long nowNs = clock.nanoTime();
            VserverSnapshot s = vs.snapshot();
            long idleNs = s.config().idleSeconds() * 1_000_000_000L;
            Iterator<Flow> it = flows.values().iterator();
            while (it.hasNext()) {
                Flow f = it.next();
                if (nowNs - f.lastSeenNs >= idleNs) {
                    it.remove();
                    endFlow(f, s);
                }
            }
            closeIdleUpstreams();
        } catch (Throwable t) {
            internalError(t);
        }
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
            assigner.touch(stickyKey.copyFrom(f.stickyKey), f.real.id(), s.config().sticky().seconds(),
                    clock.epochMillis());
        }
    }

    private void closeIdleUpstreams() {
        // keep one socket; close the rest once they carry no flow (one pass, not a remove per socket)
        boolean any = false;
        for (int i = 1, n = upstreams.size(); i < n; i++) {
            UpstreamSocket u = upstreams.get(i);
            if (u.byTarget.isEmpty()) {
                u.closed = true;
                u.channel.close();
                any = true;
            }
        }
        if (any) {
            upstreams.removeIf(u -> u.closed);
            for (ArrayDeque<UpstreamSocket> free : freeFor.values()) {
                free.removeIf(u -> u.closed);
            }
        }
    }

    /** Number of flows on this loop (tests, show). Call on the loop. */
    int flowCount() {
        return flows.size();
    }

    @Override
    public void close() {
        if (ager != null) {
            ager.cancel(false);
        }
        VserverSnapshot s = vs.snapshot();
        for (Flow f : flows.values()) {
            endFlow(f, s);
        }
        flows.clear();
        for (UpstreamSocket u : upstreams) {
            u.channel.close();
        }
        upstreams.clear();
        if (vip != null) {
            vip.close();
        }
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    private void markDirty(Channel c) {
        for (int i = 0, n = dirty.size(); i < n; i++) {
            if (dirty.get(i) == c) {
                return;
            }
        }
        dirty.add(c);
    }

    private void flushUpstreams() {
        for (int i = 0, n = dirty.size(); i < n; i++) {
            dirty.get(i).flush();
        }
        dirty.clear();
    }

    private void flushVip() {
        if (vipDirty) {
            vipDirty = false;
            vip.flush();
        }
    }

    private void drop(DatagramPacket packet, DropReason reason) {
        packet.release();
        vs.metrics().countDrop(reason);
    }

    private void internalError(Throwable t) {
        vs.metrics().countDrop(DropReason.INTERNAL_ERROR);
        if (!warnedInternal) {
            warnedInternal = true; // once per relay: never a log line per packet
            LOG.error("vserver {}: internal error on the data path (counted as drops, reason internal_error)",
                    vs.name(), t);
        }
    }

    /** Answers from reals arrive on the upstream sockets, on the same loop. */
    private final class UpstreamHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                io.netty.util.ReferenceCountUtil.release(msg);
                return;
            }
            try {
                onRealDatagram(ctx.channel().attr(VirtualServer.UPSTREAM).get(), packet);
            } catch (Throwable t) {
                packet.release();
                internalError(t);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            flushVip();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            internalError(cause);
        }
    }
}
