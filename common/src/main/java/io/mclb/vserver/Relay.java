package io.mclb.vserver;

import io.mclb.farm.RealServer;
import io.mclb.metrics.VserverMetrics;
import io.mclb.net.DatagramEnvelopes;
import io.mclb.net.DropReason;
import io.mclb.net.UdpSockets;
import io.mclb.select.RealSelector;
import io.mclb.time.NanoClock;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.MclbDatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The data path of one virtual server on one event loop: the handler of its listener socket and of
 * its sockets toward the reals. What both relays share lives here: admission (oversized, out of
 * service), answers written on the virtual address and flushed once per read batch, drops counted
 * by reason, data-path errors caught and counted (never thrown out of the loop, logged once), the
 * ageing timer and the upstream sockets' handler. The two kinds of relay say what a datagram is:
 * {@link FlowRelay} (plain UDP flows) and {@link io.mclb.transaction.TransactionRelay} (request /
 * response services).
 *
 * <p>Everything here runs on {@link #loop()}; datagrams never throw out of it.
 */
public abstract class Relay extends ChannelInboundHandlerAdapter implements MclbDatagramChannel.DirectReader {
    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    protected final VirtualServer vs;
    protected final EventLoop loop;
    protected final NanoClock clock;
    /** The one "choose a real" step (sticky, predictor, backup farm, client rules). */
    protected final RealSelector selector;
    /** Outbound envelopes reused on this loop: no {@code DatagramPacket} allocated per forwarded datagram. */
    protected final DatagramEnvelopes envelopes;
    private final RealTargets targets;
    private final long agePeriodMs;
    private Channel vip;
    private int vipPort;
    private ScheduledFuture<?> ager;
    private boolean vipDirty;
    private boolean warnedInternal;
    /** {@link #batchNowNs}'s reading, valid until the read batch ends ({@link #batchClockRead}); loop-confined. */
    private long batchNs;
    private boolean batchClockRead;

    protected Relay(VirtualServer vs, EventLoop loop, long agePeriodMs) {
        this.vs = vs;
        this.loop = loop;
        this.clock = vs.clock();
        this.selector = vs.newSelector();
        this.envelopes = new DatagramEnvelopes(loop);
        this.targets = new RealTargets(vs);
        this.agePeriodMs = agePeriodMs;
    }

    public final EventLoop loop() {
        return loop;
    }

    /** A client datagram that passed admission; the relay owns it (forward or release). */
    protected abstract void onClient(DatagramPacket packet, VserverSnapshot s);

    /** A datagram from a real on upstream socket {@code socket} (its channel {@code upstream}). */
    protected abstract void onReal(Channel upstream, int socket, DatagramPacket packet);

    /** Timers: idle flows, request timeouts, lingering transactions. */
    protected abstract void age();

    /** Flushes the upstream sockets written since the last call. */
    protected abstract void flushUpstreams();

    /**
     * True: on mclb's epoll channel the listener and upstream sockets hand each datagram straight
     * to this relay ({@link MclbDatagramChannel#readDirectly}) instead of through the pipeline;
     * the batch end still comes through it. The plain relay does (issue 15, target 1). The
     * transaction relay does not: with direct reads its GTP loop cost per create measured the same
     * as through the pipeline at a fixed rate (perf/README.md, "Issue 15", "Direct reads on the
     * transaction relay"), where a request and its answer are a few percent of the path's cost.
     */
    protected boolean readsDirectly() {
        return false;
    }

    /** After every read batch (e.g. publish counts with one shared write, not one per datagram). */
    protected void afterBatch() {
    }

    /** Closes the upstream sockets and releases what the relay holds on reals. */
    protected abstract void closeRelay();

    /**
     * {@code show conns}: adds this loop's connections whose client {@code wanted} accepts, until
     * {@code into} holds {@code limit}. Runs on {@link #loop()}.
     */
    protected abstract void listConnections(java.util.function.Predicate<InetSocketAddress> wanted, int limit,
                                            java.util.List<Connection> into);

    /** {@link #listConnections} from another thread: queued on the loop, awaited at most 2 s. */
    final java.util.List<Connection> connections(java.util.function.Predicate<InetSocketAddress> wanted, int limit) {
        java.util.List<Connection> rows = new java.util.ArrayList<>();
        try {
            loop.submit(() -> listConnections(wanted, limit, rows)).get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.debug("vserver {}: connections not listed: {}", vs.name(), e.toString());
        }
        return rows;
    }

    @Override
    public final void channelActive(ChannelHandlerContext c) {
        vip = c.channel();
        vipPort = ((InetSocketAddress) vip.localAddress()).getPort();
        ager = loop.scheduleAtFixedRate(this::ageSafely, agePeriodMs, agePeriodMs, TimeUnit.MILLISECONDS);
        readDirectlyFrom(vip, this);
        c.fireChannelActive();
    }

    private void readDirectlyFrom(Channel ch, MclbDatagramChannel.DirectReader reader) {
        if (readsDirectly() && ch instanceof MclbDatagramChannel m) {
            m.readDirectly(reader);
        }
    }

    @Override
    public final void channelRead(ChannelHandlerContext c, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        fromClient(packet);
    }

    /** A listener's datagram without the pipeline ({@link #readsDirectly}). */
    @Override
    public final void datagramRead(MclbDatagramChannel channel, DatagramPacket packet) {
        fromClient(packet);
    }

    private void fromClient(DatagramPacket packet) {
        try {
            VserverSnapshot s = admit(packet);
            if (s != null) {
                onClient(packet, s);
            }
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(packet);
            internalError(t);
        }
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext c) {
        batchClockRead = false;
        flushUpstreams();
        flushVip();
        afterBatch();
    }

    /**
     * The clock, read once per read batch: the datagrams of a batch (at most a few hundred
     * microseconds apart) share one reading instead of a clock_gettime each, which was 0.4 % of
     * the plain relay's loop (perf/README.md, "Issue 15"). For per-datagram bookkeeping whose
     * timers run in seconds (idle flows, unanswered datagrams); the next batch reads it again.
     */
    protected final long batchNowNs() {
        if (!batchClockRead) {
            batchNs = clock.nanoTime();
            batchClockRead = true;
        }
        return batchNs;
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        internalError(cause);
    }

    /** Counts the request; refuses oversized ones and any while the virtual server does not serve. */
    private VserverSnapshot admit(DatagramPacket packet) {
        vs.metrics().requests.increment();
        if (packet.content().readableBytes() > UdpSockets.MAX_DATAGRAM) {
            drop(packet, DropReason.OVERSIZED);
            return null;
        }
        if (!vs.serving()) {
            drop(packet, DropReason.OUT_OF_SERVICE);
            return null;
        }
        return vs.snapshot();
    }

    /** The port this relay's listener is bound to (one of an all-ports virtual server's). */
    protected final int vipPort() {
        return vipPort;
    }

    /** Where a request for {@code real} goes from this relay's listener (built once per real, not per request). */
    protected final InetSocketAddress targetOf(RealServer real) {
        return targets.of(real, vipPort);
    }

    /** Writes an answer to the client from the virtual address (flushed after the batch). */
    protected final void toClient(ByteBuf answer, InetSocketAddress client) {
        vs.metrics().responses.increment();
        fromVip(answer, client);
    }

    /**
     * Writes a datagram from the virtual address to {@code to} (flushed after the batch), uncounted
     * but for a drop ({@code send_failed}) when the listener's send queue is full.
     */
    protected final void fromVip(ByteBuf datagram, InetSocketAddress to) {
        if (envelopes.send(vip, datagram, to)) {
            vipDirty = true;
        } else {
            datagram.release();
            vs.metrics().countDrop(DropReason.SEND_FAILED);
        }
    }

    protected final void drop(DatagramPacket packet, DropReason reason) {
        packet.release();
        vs.metrics().countDrop(reason);
    }

    /** {@link #drop(DatagramPacket, DropReason)} for a datagram's content taken out of its packet. */
    protected final void drop(ByteBuf content, DropReason reason) {
        content.release();
        vs.metrics().countDrop(reason);
    }

    protected final VserverMetrics metrics() {
        return vs.metrics();
    }

    protected final void internalError(Throwable t) {
        vs.metrics().countDrop(DropReason.INTERNAL_ERROR);
        if (!warnedInternal) {
            warnedInternal = true; // once per relay: never a log line per packet
            LOG.error("vserver {}: internal error on the data path (counted as drops, reason internal_error)",
                    vs.name(), t);
        }
    }

    /**
     * Runs {@code work} on this relay's loop, from another loop, as part of this relay's data path:
     * errors counted, what it wrote flushed at once (there is no read batch to end).
     */
    protected final void runHandedOver(Runnable work) {
        loop.execute(() -> {
            try {
                work.run();
            } catch (Throwable t) {
                internalError(t);
            }
            batchClockRead = false;
            flushUpstreams();
            flushVip();
        });
    }

    private void ageSafely() {
        try {
            age();
        } catch (Throwable t) {
            internalError(t);
        }
    }

    private void flushVip() {
        if (vipDirty) {
            vipDirty = false;
            DatagramEnvelopes.flush(vip);
        }
    }

    /**
     * Binds a socket toward reals of {@code family}'s address family on this loop, whose datagrams
     * come to {@link #onReal} with {@code socket}. From outside the loop the bind can be awaited;
     * from inside it completes later (the caller queues until then).
     */
    protected final ChannelFuture bindUpstream(InetAddress family, int socket) {
        return UdpSockets.upstream(family).group(loop).handler(new UpstreamHandler(socket))
                .bind(UdpSockets.ephemeral(family));
    }

    /** Closes the listener and the upstream sockets and releases what the relay holds on reals. Call on {@link #loop()}. */
    public final void close() {
        if (ager != null) {
            ager.cancel(false);
        }
        closeRelay();
        if (vip != null) {
            vip.close();
        }
    }

    /** Answers from reals arrive on the upstream sockets, on the same loop. */
    private final class UpstreamHandler extends ChannelInboundHandlerAdapter implements MclbDatagramChannel.DirectReader {
        private final int socket;

        UpstreamHandler(int socket) {
            this.socket = socket;
        }

        @Override
        public void channelActive(ChannelHandlerContext c) {
            readDirectlyFrom(c.channel(), this);
            c.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            fromReal(c.channel(), packet);
        }

        /** An upstream socket's datagram without the pipeline ({@link #readsDirectly}). */
        @Override
        public void datagramRead(MclbDatagramChannel channel, DatagramPacket packet) {
            fromReal(channel, packet);
        }

        private void fromReal(Channel channel, DatagramPacket packet) {
            try {
                onReal(channel, socket, packet);
            } catch (Throwable t) {
                ReferenceCountUtil.safeRelease(packet);
                internalError(t);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext c) {
            batchClockRead = false;
            flushVip();
            flushUpstreams();
            afterBatch();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            internalError(cause);
        }
    }

    /** For {@link VirtualServer}: the handler installed on a listener. */
    final ChannelHandler handler() {
        return this;
    }
}
