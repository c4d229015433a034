package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.mclb.metrics.VserverMetrics;
import io.mclb.net.DropReason;
import io.mclb.sticky.StickyKey;
import io.mclb.time.NanoClock;
import io.mclb.vserver.Assigner;
import io.mclb.vserver.Relay;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Request/response balancing for one virtual server with a {@code service} on one event loop.
 *
 * <p>Each request becomes a {@link Transaction}: its id is replaced by one unique on the upstream
 * path (one of this loop's upstream sockets to that real) and restored on the answer, which leaves from
 * the virtual address. A client retransmission (same client, id and fingerprint) goes to the same
 * real with the same upstream id, also after the answer while the transaction lingers, so the
 * real's own duplicate detection works; after {@code reassign} unanswered retransmissions the real
 * is charged a failure and the request moves. A request unanswered for the request timeout
 * charges its real a failure. All tables are confined to {@link #loop}: no locks.
 */
public final class TransactionRelay extends ChannelInboundHandlerAdapter implements Relay {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionRelay.class);
    private static final long AGE_PERIOD_MS = 50;
    /** Declared once: {@link DropReason#of} is for start-up, not per datagram. */
    static final DropReason REJECTED_BY_INSPECTOR = DropReason.of("rejected_by_inspector");

    private final VirtualServer vs;
    private final EventLoop loop;
    private final ServiceInspector inspector;
    private final NanoClock clock;
    private final long timeoutNs;
    /**
     * How long an answered transaction is kept so a client retransmission (its answer was lost)
     * still reaches the same real with the same upstream id: the request timeout, at most
     * {@link #MAX_LINGER_NS} (GTP T3-RESPONSE and RADIUS retransmit timers are a few seconds).
     */
    private final long lingerNs;
    static final long MAX_LINGER_NS = 15_000_000_000L;
    private final Assigner assigner;
    private final RequestContext ctx = new RequestContext();
    private final StickyKey key = new StickyKey();
    private final TransactionTable table;
    /** This loop's upstream sockets ({@link ServiceInspector#upstreamSockets()}); index = socket number. */
    private final UpstreamSockets upstreams;
    private Channel vip;
    private ScheduledFuture<?> ager;
    private boolean vipDirty;
    private boolean warnedInternal;
    /** This relay's share of {@link VirtualServer#transactionsActive()}, last published. */
    private long publishedTransactions;

    /**
     * Binds this loop's upstream sockets (call from outside the loop, at start).
     *
     * @param requestTimeoutMs how long a request waits for its answer, and how long an answered
     *                         transaction lingers for late retransmissions
     */
    public TransactionRelay(VirtualServer vs, EventLoop loop, ServiceInspector inspector, long requestTimeoutMs) {
        this.vs = vs;
        this.loop = loop;
        this.inspector = inspector;
        this.clock = vs.clock();
        this.timeoutNs = requestTimeoutMs * 1_000_000L;
        this.lingerNs = Math.min(timeoutNs, MAX_LINGER_NS);
        this.assigner = new Assigner(vs.stickyTable());
        int sockets = Math.max(1, Math.min(64, inspector.upstreamSockets()));
        this.table = new TransactionTable(inspector.idBits(), sockets);
        InetAddress family = vs.snapshot().farm().reals().length > 0 ? vs.snapshot().farm().reals()[0].address()
                : vs.snapshot().config().address();
        this.upstreams = new UpstreamSockets(sockets, family, loop, UpstreamHandler::new);
    }

    @Override
    public void channelActive(ChannelHandlerContext c) {
        vip = c.channel();
        ager = loop.scheduleAtFixedRate(this::age, AGE_PERIOD_MS, AGE_PERIOD_MS, TimeUnit.MILLISECONDS);
        c.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            onRequest(packet);
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(packet);
            internalError(t);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        upstreams.flush();
        flushVip();
        publishTransactions();
    }

    /** One shared atomic add per read batch or ageing tick, not per datagram. */
    private void publishTransactions() {
        long n = table.size();
        if (n != publishedTransactions) {
            vs.transactionsActive().addAndGet(n - publishedTransactions);
            publishedTransactions = n;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        internalError(cause);
    }

    private void onRequest(DatagramPacket packet) {
        VserverMetrics m = vs.metrics();
        m.requests.increment();
        ByteBuf buf = packet.content();
        if (buf.readableBytes() > VirtualServer.MAX_DATAGRAM) {
            drop(packet, DropReason.OVERSIZED);
            return;
        }
        if (!vs.serving()) {
            drop(packet, DropReason.OUT_OF_SERVICE);
            return;
        }
        VserverSnapshot s = vs.snapshot();
        InetSocketAddress client = packet.sender();
        if (!s.config().admits(client.getAddress().getAddress())) {
            drop(packet, DropReason.CLIENT_NOT_ALLOWED);
            return;
        }
        ctx.reset();
        inspector.classify(buf, client, ctx);
        switch (ctx.kind) {
            case DROP -> drop(packet, ctx.dropReason);
            case LOCAL -> {
                packet.release();
                m.localAnswers.increment();
                m.responses.increment();
                vip.write(new DatagramPacket(ctx.localAnswer, client), vip.voidPromise());
                vipDirty = true;
            }
            case NEW, FOLLOW_UP -> onBalancedRequest(packet, s, client);
            default -> drop(packet, DropReason.INTERNAL_ERROR);
        }
    }

    private void onBalancedRequest(DatagramPacket packet, VserverSnapshot s, InetSocketAddress client) {
        long nowNs = clock.nanoTime();
        long clientKey = TransactionTable.clientKey(client, ctx.id, ctx.fingerprint);
        Transaction tx = table.byClient(clientKey, client, ctx.id, ctx.fingerprint);
        if (tx != null) {
            retransmission(packet, s, tx, nowNs);
            return;
        }
        tx = new Transaction(client, ctx.id, ctx.fingerprint, clientKey, nowNs);
        tx.attachment = ctx.attachment;
        RealServer real = null;
        if (ctx.sticky) {
            // also for a follow-up: if it is moved off its real, the entry follows it
            tx.stickyKey = ctx.stickyKey.bytes().clone();
            tx.stickySeconds = ctx.stickySeconds;
            tx.stickyOnAnswer = ctx.stickyOnAnswer;
        }
        if (ctx.kind == RequestContext.Kind.FOLLOW_UP) {
            RealServer r = s.realById(ctx.followUpRealId);
            if (r != null && r.tryAcquire(nowNs, false)) {
                real = r;
            }
        }
        if (real == null) {
            StickyKey k = null;
            if (ctx.sticky) {
                k = key.copyFrom(ctx.stickyKey.bytes());
            }
            real = assigner.assign(s, k, ctx.stickySeconds, null, nowNs, clock.epochMillis(), !ctx.stickyOnAnswer);
        }
        if (real == null) {
            drop(packet, DropReason.NO_REAL_AVAILABLE);
            return;
        }
        if (ctx.keepCopy) {
            tx.requestCopy = packet.content().copy();
        }
        tx.holdsReal = true;
        vs.metrics().assignments.increment();
        if (!send(tx, real, packet.content(), nowNs)) {
            real.release();
            tx.holdsReal = false;
            drop(packet, DropReason.ID_SPACE_EXHAUSTED);
            tx.releaseCopy();
            return;
        }
        table.addClient(tx);
    }

    private void retransmission(DatagramPacket packet, VserverSnapshot s, Transaction tx, long nowNs) {
        vs.metrics().retransmissions.increment();
        tx.retransmissions++;
        RealServer r = tx.real;
        if (!tx.answered && tx.retransmissions >= r.config().reassign() && r.config().inbandFaildetect()) {
            r.onFailure(nowNs, tx.client.hashCode());
            tx.retransmissions = 0;
            RealServer next = moveToAnother(s, tx, nowNs);
            if (next != null) {
                vs.metrics().countReassignment("unanswered");
                if (!send(tx, next, packet.content(), nowNs)) {
                    drop(packet, DropReason.ID_SPACE_EXHAUSTED);
                }
                return;
            }
            // no other real can take it: the retransmission still goes to this one, same id
        }
        // same real, same upstream id: the real recognises its duplicate
        ByteBuf buf = toReal(packet.content(), tx);
        tx.realRequests().increment();
        upstreams.write(table.socketOf(tx), new DatagramPacket(buf, tx.target));
    }

    /**
     * Acquires another real, then releases the transaction's real and retires its upstream id.
     * When no other real can take it, returns null and leaves the transaction as it was (its
     * real, hold and upstream id).
     */
    private RealServer moveToAnother(VserverSnapshot s, Transaction tx, long nowNs) {
        RealServer old = tx.real;
        StickyKey k = null;
        if (tx.stickyKey != null) {
            k = key.copyFrom(tx.stickyKey);
        }
        RealServer next = assigner.assign(s, k, tx.stickySeconds, old, nowNs, clock.epochMillis(),
                k != null && !tx.stickyOnAnswer);
        if (next == null) {
            return null;
        }
        table.removeUpstream(tx);
        if (tx.holdsReal) {
            old.release();
        }
        tx.holdsReal = true;
        tx.reassignments++;
        return next;
    }

    /** Gives the transaction an upstream id on the real's path and writes the request there. */
    private boolean send(Transaction tx, RealServer real, ByteBuf buf, long nowNs) {
        InetSocketAddress target = vs.targetOf(real);
        if (!table.assignUpstream(tx, real, target)) {
            return false;
        }
        tx.sentNs = nowNs;
        buf = toReal(buf, tx);
        tx.realRequests = vs.realRequests(real);
        tx.realRequests.increment();
        upstreams.write(table.socketOf(tx), new DatagramPacket(buf, target));
        return true;
    }

    /**
     * The inspector's last changes; returns the buffer to send, which is a grown copy (and
     * {@code buf} released) when the inspector appends more than {@code buf} can hold.
     */
    private ByteBuf toReal(ByteBuf buf, Transaction tx) {
        int grow = inspector.toRealGrowth(tx);
        if (grow > 0 && buf.maxWritableBytes() < grow) {
            ByteBuf bigger = buf.alloc().buffer(buf.readableBytes() + grow);
            bigger.writeBytes(buf, buf.readerIndex(), buf.readableBytes());
            buf.release();
            buf = bigger;
        }
        inspector.writeRequestId(buf, tx.upstreamId);
        inspector.toReal(buf, tx);
        return buf;
    }

    private void onResponse(int socket, DatagramPacket packet) {
        ByteBuf buf = packet.content();
        InetSocketAddress sender = packet.sender();
        long id = inspector.responseId(buf);
        Transaction tx = id < 0 ? null : table.byUpstream(socket, sender, id);
        if (tx == null) {
            ByteBuf answer = inspector.unsolicited(buf, sender);
            if (answer != null) {
                packet.release();
                upstreams.write(socket, new DatagramPacket(answer, sender));
                vs.metrics().localAnswers.increment();
                return;
            }
            drop(packet, id < 0 ? DropReason.MALFORMED : DropReason.UNKNOWN_RESPONSE);
            return;
        }
        DropReason refused = inspector.verifyResponse(buf, tx);
        if (refused != null) {
            drop(packet, refused);
            return;
        }
        long nowNs = clock.nanoTime();
        if (tx.answered) {
            forward(packet, tx); // the real replayed its answer to a late retransmission
            return;
        }
        ResponseVerdict verdict = inspector.inspectResponse(buf, tx);
        switch (verdict) {
            case FORWARD, FORWARD_SESSION -> {
                tx.answered = true;
                table.answered(tx, nowNs);
                vs.metrics().upstreamLatency.record(nowNs - tx.sentNs, TimeUnit.NANOSECONDS);
                tx.real.onAnswered(nowNs);
                if (tx.holdsReal && verdict == ResponseVerdict.FORWARD) {
                    tx.real.release();
                }
                tx.holdsReal = false;
                if (tx.stickyKey != null && tx.stickyOnAnswer && verdict == ResponseVerdict.FORWARD_SESSION) {
                    assigner.write(key.copyFrom(tx.stickyKey), tx.real.id(), tx.stickySeconds, clock.epochMillis());
                }
                tx.releaseCopy();
                forward(packet, tx);
            }
            case REASSIGN -> reassignOnAnswer(packet, tx, nowNs);
            default -> drop(packet, REJECTED_BY_INSPECTOR);
        }
    }

    private void reassignOnAnswer(DatagramPacket packet, Transaction tx, long nowNs) {
        packet.release(); // the reject never reaches the client
        tx.real.onFailure(nowNs, tx.client.hashCode());
        VserverSnapshot s = vs.snapshot();
        RealServer next = tx.requestCopy == null || tx.reassignments >= s.farm().reals().length - 1 ? null
                : moveToAnother(s, tx, nowNs);
        if (next == null) {
            vs.metrics().countDrop(DropReason.NO_REAL_AVAILABLE);
            table.removeUpstream(tx);
            if (tx.holdsReal) {
                tx.real.release();
                tx.holdsReal = false;
            }
            tx.answered = true; // nothing more will come; let it age out
            table.answered(tx, nowNs);
            tx.releaseCopy();
            return;
        }
        vs.metrics().countReassignment("cause");
        ByteBuf copy = tx.requestCopy.retainedDuplicate();
        if (!send(tx, next, copy, nowNs)) {
            copy.release();
            vs.metrics().countDrop(DropReason.ID_SPACE_EXHAUSTED);
        }
    }

    private void forward(DatagramPacket packet, Transaction tx) {
        ByteBuf buf = packet.content();
        inspector.writeResponseId(buf, tx.originalId);
        inspector.toClient(buf, tx);
        vs.metrics().responses.increment();
        vip.write(new DatagramPacket(buf, tx.client), vip.voidPromise());
        vipDirty = true;
    }

    private void age() {
        try {
            long nowNs = clock.nanoTime();
            Transaction tx;
            while ((tx = table.oldestPending()) != null && nowNs - tx.createdNs >= timeoutNs) {
                table.removeOldestPending();
                vs.metrics().requestTimeouts.increment();
                // only a real that had the whole timeout is charged: not one the request moved to late
                if (tx.real != null && nowNs - tx.sentNs >= timeoutNs) {
                    tx.real.onFailure(nowNs, tx.client.hashCode());
                }
                if (tx.holdsReal) {
                    tx.real.release();
                    tx.holdsReal = false;
                }
                tx.releaseCopy();
            }
            while ((tx = table.oldestAnswered()) != null && nowNs - tx.answeredNs >= lingerNs) {
                table.removeOldestAnswered();
            }
            publishTransactions();
        } catch (Throwable t) {
            internalError(t);
        }
    }

    /** Transactions tracked on this loop (tests, show). Call on the loop. */
    public int transactions() {
        return table.size();
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    @Override
    public void close() {
        if (ager != null) {
            ager.cancel(false);
        }
        Transaction tx;
        while ((tx = table.oldestPending()) != null) {
            table.removeOldestPending();
            if (tx.holdsReal) {
                tx.real.release();
            }
            tx.releaseCopy();
        }
        while (table.oldestAnswered() != null) {
            table.removeOldestAnswered();
        }
        publishTransactions();
        upstreams.close();
        if (vip != null) {
            vip.close();
        }
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
            warnedInternal = true;
            LOG.error("vserver {}: internal error on the data path (counted as drops, reason internal_error)",
                    vs.name(), t);
        }
    }

    private final class UpstreamHandler extends ChannelInboundHandlerAdapter {
        private final int socket;

        UpstreamHandler(int socket) {
            this.socket = socket;
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            try {
                onResponse(socket, packet);
            } catch (Throwable t) {
                ReferenceCountUtil.safeRelease(packet);
                internalError(t);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext c) {
            flushVip();
            upstreams.flush();
            publishTransactions();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            internalError(cause);
        }
    }
}
