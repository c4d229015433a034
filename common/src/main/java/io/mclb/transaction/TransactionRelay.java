package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.mclb.net.DropReason;
import io.mclb.overload.SessionGuard;
import io.mclb.select.Selection;
import io.mclb.select.StickyMode;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.vserver.Relay;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Request/response balancing for one virtual server with a {@code service} on one event loop:
 * the engine's relay around a module's {@link ServiceInspector}.
 *
 * <p>Each request becomes a {@link Transaction}: its id is replaced by one unique on the upstream
 * path (one of this loop's {@link PathSockets} to that real) and restored on the answer, which
 * leaves from the virtual address. A client retransmission (same client, id and fingerprint) goes
 * to the same real with the same upstream id, also after the answer while the transaction
 * lingers, so the real's own duplicate detection works; after {@code reassign} unanswered
 * retransmissions the real is charged a failure and the request moves. A request unanswered for
 * the request timeout charges its real a failure. All tables are confined to {@link #loop}: no locks.
 *
 * <p>Two variations a shape or classification asks for: ids that pass through unmodified (the
 * upstream id is the client's, {@link ServiceInspector.Shape#idsPassThrough}), and one-way
 * requests that expect no answer ({@link Classification#oneWay}).
 *
 * @param <T> the inspector's per-transaction state
 */
public final class TransactionRelay<T> extends Relay {
    private static final long AGE_PERIOD_MS = 50;
    /** Declared once: {@link DropReason#of} is for start-up, not per datagram. */
    static final DropReason REJECTED_BY_INSPECTOR = DropReason.of("rejected_by_inspector");
    /** Pass-through ids: every upstream socket to the real has a request waiting with this id. */
    static final DropReason UPSTREAM_ID_IN_USE = DropReason.of("upstream_id_in_use");
    static final long MAX_LINGER_NS = 15_000_000_000L;

    private final ServiceInspector<T> inspector;
    private final long timeoutNs;
    /**
     * How long an answered transaction is kept so a client retransmission (its answer was lost)
     * still reaches the same real with the same upstream id: the request timeout, at most
     * {@link #MAX_LINGER_NS} (GTP T3-RESPONSE and RADIUS retransmit timers are a few seconds).
     */
    private final long lingerNs;
    private final Classification<T> classification = new Classification<>();
    /** For reassignments: the routing facts rebuilt from the transaction. */
    private final Selection reselection = new Selection();
    private final TransactionTable table;
    private final PathSockets sockets;
    /** {@code synguard}: new sessions per client (issue 14 item 7). */
    private final SessionGuard sessionGuard;
    /** {@code mclb max-transactions}: this relay's part of its loop's count. */
    private final TransactionBudget.Share budget;
    /** Requests reals start toward clients, and their answers ({@link Classification.Kind#REAL_REQUEST}). */
    private final RealInitiated<T> realInitiated;
    /** This relay's share of {@link VirtualServer#transactionsActive()}, last published. */
    private long publishedTransactions;

    /** A relay with a budget of its own at the default cap (tests). */
    public TransactionRelay(VirtualServer vs, EventLoop loop, ServiceInspector<T> inspector) {
        this(vs, loop, inspector, new TransactionBudget().share(loop));
    }

    /** Binds this loop's upstream sockets (call from outside the loop, at start). */
    public TransactionRelay(VirtualServer vs, EventLoop loop, ServiceInspector<T> inspector,
                            TransactionBudget.Share budget) {
        super(vs, loop, AGE_PERIOD_MS);
        this.budget = budget;
        this.sessionGuard = new SessionGuard(vs.metrics());
        vs.metrics().drop(TransactionBudget.TRANSACTION_TABLE_FULL); // exported at 0 from the start
        this.inspector = inspector;
        ServiceInspector.Shape shape = inspector.shape();
        this.timeoutNs = shape.requestTimeoutMs() * 1_000_000L;
        this.lingerNs = Math.min(timeoutNs, MAX_LINGER_NS);
        this.table = new TransactionTable(shape.idBits(), shape.upstreamSockets(), shape.idsPassThrough(), retiredStates(inspector));
        VserverSnapshot s = vs.snapshot();
        InetAddress family = s.farm().reals().length > 0 ? s.farm().reals()[0].address() : s.config().address();
        this.sockets = new PathSockets(shape.upstreamSockets(), i -> bindUpstream(family, i));
        this.realInitiated = new RealInitiated<>(inspector, vs.metrics(), this::fromVip, timeoutNs, lingerNs);
    }

    /** Hands a reused transaction's old state back to its inspector ({@link ServiceInspector#retired}). */
    @SuppressWarnings("unchecked")
    static <T> java.util.function.Consumer<Object> retiredStates(ServiceInspector<T> inspector) {
        return state -> inspector.retired((T) state);
    }

    /** One shared atomic add per read batch or ageing tick, not per datagram. */
    @Override
    protected void afterBatch() {
        int n = table.size();
        budget.settle(n);
        if (n != publishedTransactions) {
            vs.transactionsActive().addAndGet(n - publishedTransactions);
            publishedTransactions = n;
        }
    }

    @Override
    protected void onClient(DatagramPacket packet, VserverSnapshot s) {
        InetSocketAddress client = packet.sender();
        // client rules are about clients: a real's own request, or a message of its that mclb answers
        // itself (a GGSN's echo to the address it was given for the SGSN), is not a client's
        boolean admitted = selector.admits(s, client.getAddress());
        if (!admitted && !isReal(s, client)) {
            drop(packet, DropReason.CLIENT_NOT_ALLOWED);
            return;
        }
        Classification<T> c = classification;
        c.reset();
        inspector.classify(packet.content(), client, c);
        dispatch(packet, s, client, c, admitted);
        T unused = c.unadoptedState();
        if (unused != null) {
            inspector.retired(unused);
        }
    }

    private void dispatch(DatagramPacket packet, VserverSnapshot s, InetSocketAddress client, Classification<T> c,
                          boolean admitted) {
        if (!admitted && c.kind() != Classification.Kind.REAL_REQUEST && c.kind() != Classification.Kind.LOCAL) {
            drop(packet, DropReason.CLIENT_NOT_ALLOWED);
            return;
        }
        switch (c.kind()) {
            case DROP -> {
                if (!c.retransmissionOnly() || !retransmitted(packet, s, client, c)) {
                    drop(packet, c.dropReason());
                }
            }
            case LOCAL -> {
                packet.release();
                metrics().localAnswers.increment();
                toClient(c.localAnswer(), client);
            }
            case NEW, FOLLOW_UP -> onRequest(packet, s, client, c);
            case REAL_REQUEST -> {
                DropReason refused = realInitiated.request(packet.content(), client, c, batchNowNs());
                if (refused != null) {
                    drop(packet, refused);
                }
            }
            case CLIENT_ANSWER -> clientAnswer(packet.content(), packet.sender(), c.id(), c.dropReason(), 0);
            default -> drop(packet, DropReason.INTERNAL_ERROR);
        }
    }

    /**
     * A client's answer to a request a real started. The request left from the socket of the loop
     * the real hashes to, but the kernel hashes the client to its own loop, which may be another:
     * an answer this loop does not own goes round the virtual server's other loops (handed over on
     * their task queues: no shared table, no lock) until one owns it, else it is dropped as
     * {@code unmatched}. With two loops that is one hop at most.
     */
    private void clientAnswer(ByteBuf answer, InetSocketAddress client, long id, DropReason unmatched, int hops) {
        // the answer's bytes and sender, never the packet: the channel reuses that object for its
        // next datagram before another loop runs the hand-over
        if (realInitiated.owns(client, id)) {
            DropReason refused = realInitiated.answer(answer, client, id, batchNowNs());
            if (refused != null) {
                drop(answer, refused);
            }
            return;
        }
        java.util.List<io.mclb.vserver.Relay> ring = vs.relaysOnPort(vipPort());
        int me = ring.indexOf(this);
        if (hops + 1 >= ring.size() || me < 0) {
            drop(answer, unmatched);
            return;
        }
        TransactionRelay<?> next = (TransactionRelay<?>) ring.get((me + 1) % ring.size());
        next.runHandedOver(() -> next.clientAnswer(answer, client, id, unmatched, hops + 1));
    }

    /** Whether {@code sender} is one of the farm's reals (only asked for a sender the client rules refuse). */
    private static boolean isReal(VserverSnapshot s, InetSocketAddress sender) {
        return inFarm(s.farm(), sender) || (s.backup() != null && inFarm(s.backup(), sender));
    }

    private static boolean inFarm(io.mclb.farm.ServerFarm farm, InetSocketAddress sender) {
        for (RealServer r : farm.reals()) {
            if (r.address().equals(sender.getAddress())) {
                return true;
            }
        }
        return false;
    }

    private void onRequest(DatagramPacket packet, VserverSnapshot s, InetSocketAddress client, Classification<T> c) {
        long nowNs = batchNowNs(); // created, sent, answered: timers of milliseconds to seconds
        long clientKey = TransactionTable.clientKey(client, c.id(), c.fingerprint());
        Transaction<T> tx = cast(table.byClient(clientKey, client, c.id(), c.fingerprint()));
        if (tx != null && c.isOneWay()) {
            // continues the exchange it acknowledges: same real, same upstream id, nothing awaited
            metrics().oneWay.increment();
            ByteBuf buf = toReal(packet.content(), tx);
            tx.realRequests.increment();
            sockets.write(table.socketOf(tx), envelopes.wrap(buf, tx.target));
            return;
        }
        if (tx != null) {
            retransmission(packet, s, tx, nowNs);
            return;
        }
        if (c.opensSession() && !sessionGuard.admits(s, client.getAddress(), nowNs)) {
            drop(packet, SessionGuard.CLIENT_RATE_LIMITED);
            return;
        }
        if (!budget.admit(table)) {
            drop(packet, TransactionBudget.TRANSACTION_TABLE_FULL);
            return;
        }
        tx = cast(table.newTransaction(client, c.id(), c.fingerprint(), clientKey, nowNs));
        tx.state = c.adoptState();
        tx.growth = c.growth();
        Selection sel = c.selection();
        if (sel.isSticky()) {
            // also for a follow-up: if it is moved off its real, the entry follows it
            tx.copyStickyKey(sel.stickyKey().bytes());
            tx.stickySeconds = sel.stickySeconds();
            tx.stickyMode = sel.stickyMode();
        }
        tx.hasRouteKey = sel.hasRouteKey();
        tx.routeKey = sel.routeKey();
        RealServer real = selector.select(s, sel, null, nowNs, clock.epochMillis());
        if (real == null) {
            table.abandon(tx);
            drop(packet, DropReason.NO_REAL_AVAILABLE);
            return;
        }
        tx.stickySeen.copyFrom(sel.sighting());
        if (c.keepsCopy()) {
            tx.requestCopy = packet.content().copy();
        }
        tx.holdsReal = true;
        if (c.isOneWay()) {
            metrics().oneWay.increment();
        } else {
            metrics().assignments.increment();
        }
        if (!send(tx, real, packet.content(), nowNs)) {
            real.release();
            tx.holdsReal = false;
            drop(packet, idUnavailable());
            tx.releaseCopy();
            table.abandon(tx);
            return;
        }
        table.addClient(tx);
        if (c.isOneWay()) {
            // nothing will answer: it only lingers, so a retransmission of it takes the same way
            real.release();
            tx.holdsReal = false;
            tx.answered = true;
            table.answered(tx, nowNs);
            tx.releaseCopy();
        }
    }

    /** {@link Classification#dropUnlessRetransmission}: true when it was one, and went on as one. */
    private boolean retransmitted(DatagramPacket packet, VserverSnapshot s, InetSocketAddress client,
                                  Classification<T> c) {
        long clientKey = TransactionTable.clientKey(client, c.id(), c.fingerprint());
        Transaction<T> tx = cast(table.byClient(clientKey, client, c.id(), c.fingerprint()));
        if (tx == null) {
            return false;
        }
        retransmission(packet, s, tx, batchNowNs());
        return true;
    }

    private DropReason idUnavailable() {
        return table.passesIdsThrough() ? UPSTREAM_ID_IN_USE : DropReason.ID_SPACE_EXHAUSTED;
    }

    private void retransmission(DatagramPacket packet, VserverSnapshot s, Transaction<T> tx, long nowNs) {
        metrics().retransmissions.increment();
        tx.retransmissions++;
        RealServer r = tx.real;
        if (!tx.answered && tx.retransmissions >= r.config().reassign() && r.config().inbandFaildetect()) {
            r.onFailure(nowNs, tx.client.hashCode());
            tx.retransmissions = 0;
            RealServer next = moveToAnother(s, tx, nowNs);
            if (next != null) {
                metrics().countReassignment("unanswered");
                if (!send(tx, next, packet.content(), nowNs)) {
                    drop(packet, idUnavailable());
                }
                return;
            }
            // no other real can take it: the retransmission still goes to this one, same id
        }
        // same real, same upstream id: the real recognises its duplicate
        ByteBuf buf = toReal(packet.content(), tx);
        tx.realRequests.increment();
        sockets.write(table.socketOf(tx), envelopes.wrap(buf, tx.target));
    }

    /**
     * Acquires another real, then releases the transaction's real and retires its upstream id.
     * When no other real can take it, returns null and leaves the transaction as it was (its
     * real, hold and upstream id).
     */
    private RealServer moveToAnother(VserverSnapshot s, Transaction<T> tx, long nowNs) {
        RealServer old = tx.real;
        Selection sel = reselection.reset();
        if (tx.hasStickyKey) {
            sel.sticky(tx.stickyKey(), tx.stickySeconds, tx.stickyMode);
        }
        if (tx.hasRouteKey) {
            sel.routeKey(tx.routeKey);
        }
        RealServer next = selector.select(s, sel, old, nowNs, clock.epochMillis());
        if (next == null) {
            return null;
        }
        tx.stickySeen.copyFrom(sel.sighting());
        table.removeUpstream(tx);
        if (tx.holdsReal) {
            old.release();
        }
        tx.holdsReal = true;
        tx.reassignments++;
        return next;
    }

    /** Gives the transaction an upstream id on the real's path and writes the request there. */
    private boolean send(Transaction<T> tx, RealServer real, ByteBuf buf, long nowNs) {
        InetSocketAddress target = targetOf(real);
        if (!table.assignUpstream(tx, real, target)) {
            return false;
        }
        tx.sentNs = nowNs;
        buf = toReal(buf, tx);
        tx.realRequests = vs.realRequests(real);
        tx.realRequests.increment();
        sockets.write(table.socketOf(tx), envelopes.wrap(buf, target));
        return true;
    }

    /**
     * The inspector's last changes; returns the buffer to send, which is a grown copy (and
     * {@code buf} released) when the inspector may append more than {@code buf} can hold.
     */
    private ByteBuf toReal(ByteBuf buf, Transaction<T> tx) {
        int grow = tx.growth;
        if (grow > 0 && buf.maxWritableBytes() < grow) {
            ByteBuf bigger = buf.alloc().buffer(buf.readableBytes() + grow);
            bigger.writeBytes(buf, buf.readerIndex(), buf.readableBytes());
            buf.release();
            buf = bigger;
        }
        inspector.toReal(buf, tx);
        return buf;
    }

    @Override
    protected void onReal(Channel upstream, int socket, DatagramPacket packet) {
        ByteBuf buf = packet.content();
        InetSocketAddress sender = packet.sender();
        long id = inspector.responseId(buf);
        Transaction<T> tx = id < 0 ? null : cast(table.byUpstream(socket, sender, id));
        if (tx == null) {
            ByteBuf answer = inspector.unsolicited(buf, sender);
            if (answer != null) {
                packet.release();
                sockets.write(socket, envelopes.wrap(answer, sender));
                metrics().localAnswers.increment();
                return;
            }
            drop(packet, id < 0 ? DropReason.MALFORMED : DropReason.UNKNOWN_RESPONSE);
            return;
        }
        tx.dropReason = null;
        ResponseVerdict verdict = inspector.onResponse(buf, tx);
        if (verdict == ResponseVerdict.DROP) {
            drop(packet, tx.dropReason != null ? tx.dropReason : REJECTED_BY_INSPECTOR);
            return;
        }
        if (tx.answered) {
            tx.real.metrics().responded();
            forward(packet, tx); // the real replayed its answer to a late retransmission
            return;
        }
        long nowNs = batchNowNs();
        long latencyNs = nowNs - tx.sentNs;
        // per real: every answer it gave, a reject that moves the request included
        tx.real.metrics().answered(latencyNs);
        if (verdict == ResponseVerdict.REASSIGN) {
            reassignOnAnswer(packet, tx, nowNs);
            return;
        }
        tx.answered = true;
        table.answered(tx, nowNs);
        metrics().upstreamLatency.record(latencyNs, TimeUnit.NANOSECONDS);
        tx.real.onAnswered(nowNs);
        if (tx.holdsReal && verdict == ResponseVerdict.FORWARD) {
            tx.real.release();
        }
        tx.holdsReal = false;
        if (tx.hasStickyKey && tx.stickyMode == StickyMode.ON_ANSWER
                && verdict == ResponseVerdict.FORWARD_SESSION) {
            long nowMs = clock.epochMillis();
            // a returning subscriber accepted by the real its entry names, refreshed lately: nothing to write
            if (selector.writeDue(tx.stickySeen, tx.real.id(), tx.stickySeconds, nowMs)) {
                selector.write(reselection.stickyKey().copyFrom(tx.stickyKey()), tx.real.id(), tx.stickySeconds, nowMs);
            }
        }
        tx.releaseCopy();
        forward(packet, tx);
    }

    private void reassignOnAnswer(DatagramPacket packet, Transaction<T> tx, long nowNs) {
        packet.release(); // the reject never reaches the client
        tx.real.onFailure(nowNs, tx.client.hashCode());
        VserverSnapshot s = vs.snapshot();
        RealServer next = tx.requestCopy == null || tx.reassignments >= s.farm().reals().length - 1 ? null
                : moveToAnother(s, tx, nowNs);
        if (next == null) {
            metrics().countDrop(DropReason.NO_REAL_AVAILABLE);
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
        ByteBuf copy = tx.requestCopy.retainedDuplicate();
        if (send(tx, next, copy, nowNs)) {
            metrics().countReassignment("cause");
        } else {
            // one outcome per datagram: the answer is counted as this drop, not also as a reassignment
            copy.release();
            metrics().countDrop(idUnavailable());
        }
    }

    private void forward(DatagramPacket packet, Transaction<T> tx) {
        ByteBuf buf = packet.content();
        int grow = inspector.answerGrowth(tx);
        if (grow > 0 && buf.maxWritableBytes() < grow) {
            ByteBuf bigger = buf.alloc().buffer(buf.readableBytes() + grow);
            bigger.writeBytes(buf, buf.readerIndex(), buf.readableBytes());
            buf.release();
            buf = bigger;
        }
        inspector.toClient(buf, tx);
        toClient(buf, tx.client);
    }

    @Override
    protected void age() {
        long nowNs = clock.nanoTime();
        Transaction<?> tx;
        while ((tx = table.oldestPending()) != null && nowNs - tx.createdNs >= timeoutNs) {
            table.removeOldestPending();
            metrics().requestTimeouts.increment();
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
        realInitiated.age(nowNs);
        afterBatch();
    }

    /** The inspector this relay drives (tests). */
    public ServiceInspector<T> inspector() {
        return inspector;
    }

    /** Transactions tracked on this loop (tests, show). Call on the loop. */
    public int transactions() {
        return table.size();
    }

    /** Requests from reals toward clients tracked on this loop (tests). Call on the loop. */
    public int realInitiatedTransactions() {
        return realInitiated.size();
    }

    @Override
    protected void flushUpstreams() {
        sockets.flush();
    }

    @Override
    protected void closeRelay() {
        Transaction<?> tx;
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
        realInitiated.clear();
        afterBatch();
        sockets.close();
    }

    /** The table holds only this relay's transactions, whose state is its inspector's T. */
    @SuppressWarnings("unchecked")
    private static <T> Transaction<T> cast(Transaction<?> tx) {
        return (Transaction<T>) tx;
    }

    @Override
    protected void listConnections(java.util.function.Predicate<InetSocketAddress> wanted, int limit,
                                   java.util.List<io.mclb.vserver.Connection> into) {
        long now = clock.nanoTime();
        table.forEachLive(tx -> {
            if (into.size() < limit && wanted.test(tx.client) && tx.real() != null) {
                long idle = ((tx.answered ? tx.answeredNs : tx.sentNs) == 0 ? 0
                        : now - (tx.answered ? tx.answeredNs : tx.sentNs)) / 1_000_000;
                into.add(new io.mclb.vserver.Connection(vs.name(), vipPort(), tx.client, tx.real(),
                        tx.answered ? "ESTAB" : "INIT", (now - tx.createdNs) / 1_000_000, idle,
                        "id " + tx.originalId + " -> " + tx.upstreamId + ", retransmissions " + tx.retransmissions
                                + ", reassignments " + tx.reassignments));
            }
        });
    }
}
