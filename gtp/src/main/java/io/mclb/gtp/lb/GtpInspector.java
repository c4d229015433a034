package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.net.DropReason;
import io.mclb.select.StickyMode;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.mclb.time.NanoClock;
import io.mclb.transaction.Transaction;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;

/**
 * The GTP service on one event loop (GTPv0 on 3386, v1/v2 on 2123; the version is read from each
 * datagram's first octet and picks a {@link GtpDialect} from a table). Confined to its loop: the
 * dialects' flyweights and scratch arrays are reused for every datagram, and so are the creates'
 * {@link GtpTx.Create} states once the engine retires them ({@link GtpTxPool}); nothing is allocated
 * per datagram except an Echo Response, and per accepted create of a new subscriber (or one that moved
 * GGSN) its new {@link GtpSession}; a known subscriber's session is renewed in place. Never
 * throws: a datagram it cannot read is dropped with a {@link GtpDrops} reason.
 *
 * <p>Request ids: 16 bits on every version (v2's 24-bit field carries the 16-bit upstream id; a
 * command-triggered MSB is kept). The retransmission fingerprint is a hash of the whole message
 * ({@link MessageFingerprint}): a retransmission is the same bytes again, while a new request that
 * reuses a sequence number (a busy SGSN wraps the 16 bits within seconds) is a new transaction.
 *
 * <p>Routing (gtp/README.md): Echo Request answered locally; Create without TEID balanced (IMSI
 * sticky, carrier allow-list in inspect mode); in inspect mode a request with a TEID (v0: TID)
 * follows the session learned from the create answer, an unknown one is dropped
 * ({@code gtp_unknown_teid}); in plain mode every other request is balanced by the predictor.
 *
 * <p>{@code gtp signalling vip} (gtp/README.md): an accepted create answer opens an anchored
 * {@link GtpSession} under a TEID mclb allocates, and {@link #toClient} gives the SGSN the virtual
 * address and that TEID as the GGSN's control identity; a follow-up addressed to it is mapped back
 * to the GGSN's own TEID in {@link #toReal}. Both rewrites are in place, lengths unchanged.
 */
final class GtpInspector implements ServiceInspector<GtpTx> {
    static final DropReason CARRIER_NOT_ALLOWED = DropReason.of("gtp_carrier_not_allowed");
    static final DropReason UNKNOWN_TEID = DropReason.of("gtp_unknown_teid");
    static final DropReason NO_SEQUENCE = DropReason.of("gtp_no_sequence");
    static final DropReason RESPONSE_TO_VIP = DropReason.of("gtp_response_to_vip");
    static final DropReason NOTIFICATION_REFUSED = DropReason.of("gtp_notification_refused");
    /** {@code gtp signalling vip}: a GGSN named a signalling address of the other family than the virtual address. */
    static final DropReason VIP_FAMILY_MISMATCH = DropReason.of("gtp_vip_family_mismatch");
    /** {@code gtp signalling vip}: no free mclb TEID within {@link GtpTeidAllocator#MAX_PROBES} tries. */
    static final DropReason NO_FREE_TEID = DropReason.of("gtp_no_free_teid");
    /** The upstream id is 16 bits on every version. */
    private static final int ID_BITS = 16;

    private final VirtualServer vs;
    private final GtpModule module;
    private final GtpMetrics metrics;
    private final NanoClock clock;
    private final GtpNotifications notifications;
    /** {@code gtp signalling vip}, the SGSN's side: its identity anchored, the GGSN's own requests relayed. */
    private final SgsnAnchor sgsn;
    private final GtpV1Dialect v1 = new GtpV1Dialect();
    /** Indexed by the version bits (0..7) of the first octet; null = unsupported. */
    private final GtpDialect[] dialects = new GtpDialect[8];
    private final byte[] imsiBytes = new byte[8];
    private final byte[] address = new byte[16];
    private final GtpTxPool pool = new GtpTxPool();
    private final GgsnAddresses ggsnAddresses = new GgsnAddresses();
    private final Shape shape;
    private VserverSnapshot lastSnapshot;
    private GtpVserverSettings settings;
    /** The farms' real addresses: under {@code gtp signalling vip} a request from one of them is the GGSN's own. */
    private Set<InetAddress> reals = Set.of();

    GtpInspector(VirtualServer vs, GtpModule module, GtpMetrics metrics) {
        this.vs = vs;
        this.module = module;
        this.metrics = metrics;
        this.clock = vs.clock();
        this.notifications = new GtpNotifications(vs, module, metrics);
        this.sgsn = new SgsnAnchor(module, metrics, clock);
        dialects[0] = new GtpV0Dialect();
        dialects[1] = v1;
        dialects[2] = new GtpV2Dialect();
        // fixed when the listeners start: a reload that changes it applies to listeners started afterwards
        this.shape = new Shape(ID_BITS, 1, settings().requestSeconds() * 1000L);
        if (settings().inspect()) {
            metrics.acceptedCausesFromStart();
        }
    }

    /** The settings of the current snapshot, resolved again only when a reload swapped it. */
    GtpVserverSettings settings() {
        VserverSnapshot s = vs.snapshot();
        if (s != lastSnapshot) {
            settings = GtpVserverSettings.of(s.config());
            reals = realAddresses(s);
            lastSnapshot = s;
        }
        return settings;
    }

    private static Set<InetAddress> realAddresses(VserverSnapshot s) {
        Set<InetAddress> out = new HashSet<>();
        for (RealServer r : s.farm().reals()) {
            out.add(r.address());
        }
        if (s.backup() != null) {
            for (RealServer r : s.backup().reals()) {
                out.add(r.address());
            }
        }
        return out;
    }

    @Override
    public Shape shape() {
        return shape;
    }

    private GtpDialect dialect(ByteBuf buf) {
        return dialects[(buf.getByte(buf.readerIndex()) & 0xFF) >>> 5];
    }

    @Override
    public void classify(ByteBuf buf, InetSocketAddress client, Classification<GtpTx> req) {
        if (!buf.isReadable()) {
            req.drop(GtpDrops.TRUNCATED_HEADER);
            return;
        }
        GtpDialect d = dialect(buf);
        if (d == null) {
            req.drop(GtpDrops.UNSUPPORTED_VERSION);
            return;
        }
        if (!d.wrap(buf)) {
            req.drop(d.reason());
            return;
        }
        if (!d.hasSequence()) {
            req.drop(NO_SEQUENCE);
            return;
        }
        GtpVserverSettings st = settings();
        boolean create = d.isInitialCreate();
        if (module.gsns().seen(GsnTable.Side.SGSN, client.getAddress(), d.version(), create ? d.recovery() : -1,
                clock.nanoTime())) {
            metrics.countSgsnRestart();
        }
        long fingerprint = MessageFingerprint.of(buf);
        int seq = d.sequence();
        if (d.isEchoRequest()) {
            req.local(d.echoAnswer(module.recovery()));
        } else if (d == v1 && GtpNotifications.isNotification(d.messageType())) {
            notifications.handle(v1.message(), client, req, st);
        } else if (d.isResponse()) {
            if (st.signallingVip()) {
                req.clientAnswer(seq, RESPONSE_TO_VIP); // an SGSN answering a request its GGSN sent through mclb
            } else {
                req.drop(RESPONSE_TO_VIP);
            }
        } else if (d.requestViolation() != null) {
            req.drop(d.requestViolation()); // nothing the specs forbid reaches a GGSN (issue 14 item 5)
        } else if (st.signallingVip() && reals.contains(client.getAddress())) {
            sgsn.fromGgsn(req, d.unaddressed() ? null : d.session(module.sessions(), st), client, d, seq, fingerprint, st);
        } else if (create) {
            create(req, st, d, seq, fingerprint);
        } else if (!st.inspect() || d.unaddressed()) {
            req.request(seq, fingerprint);
        } else {
            follow(req, d.session(module.sessions(), st), seq, fingerprint, d, st);
        }
    }

    private void create(Classification<GtpTx> req, GtpVserverSettings st, GtpDialect d, int seq, long fingerprint) {
        long packedImsi = d.imsi(st);
        DropReason bad = GtpDrops.forImsi(packedImsi);
        if (bad != null) {
            req.drop(bad);
            return;
        }
        if (st.inspect() && !st.carrierAllowed(packedImsi)) {
            req.drop(CARRIER_NOT_ALLOWED);
            return;
        }
        long imsiRaw = d.imsiRaw(st);
        GtpTx.Create state = st.inspect() ? pool.create(imsiRaw, Math.max(d.nsapi(st), 0), null) : null;
        if (state != null && st.signallingVip() && !sgsn.anchorCreate(req, d, state, st)) {
            pool.retire(state);
            return;
        }
        req.request(seq, fingerprint).startsSession(); // v0/v1 Create PDP Context, v2 Create Session: synguard counts it
        if (st.stickyImsi()) {
            putLong(imsiBytes, imsiRaw);
            req.stickyKey().set(GtpModule.IMSI, st.stickyGroup(), imsiBytes, 0, 8);
            // an IMSI sticks to a GGSN only once it accepted: a "no resources" reject must not pin it
            req.sticky(st.imsiSeconds(), st.inspect() ? StickyMode.ON_ANSWER : StickyMode.ON_ASSIGN);
        }
        if (state != null) {
            req.keepCopy();
            req.state(state);
        }
    }

    /**
     * A request inside a known session goes to the session's real. A delete carries the session
     * (closed when the delete is accepted); a v1 secondary create carries a {@link GtpTx.Create}.
     */
    private void follow(Classification<GtpTx> req, GtpSession s, int seq, long fingerprint, GtpDialect d,
                        GtpVserverSettings st) {
        if (s == null) {
            // a Delete resent after its answer was lost finds its session ended by that answer
            req.dropUnlessRetransmission(seq, fingerprint, UNKNOWN_TEID);
            return;
        }
        s.touch(clock.nanoTime());
        req.followUp(seq, fingerprint, s.real().id());
        boolean anchored = s.anchored();
        if (d.isDelete()) {
            int nsapi = d.version() == 2 ? -1 : d.nsapi(st);
            GtpSession target = s;
            if (nsapi >= 0 && nsapi != s.nsapi()) {
                GtpSession other = module.sessions().get(s.imsiRaw(), nsapi);
                target = other != null ? other : s;
            }
            if (anchored) {
                req.state(target == s ? s.follow(true) : new GtpTx.Follow(s, target));
                return;
            }
            // the context the SGSN addressed, as of now: a re-create that renews the session after this
            // read moves its generation, and this delete's answer then ends nothing
            int generation = target.generation();
            if (generation == io.mclb.binding.Binding.ENDED || (target == s && !d.names(s))) {
                return; // renewed for another context or ended since the lookup: relayed, ends nothing
            }
            req.state(pool.end(target, generation));
        } else if (d.isSecondaryCreate()) {
            GtpTx.Create create = pool.create(s.imsiRaw(), Math.max(d.nsapi(st), 0), anchored ? s : null);
            if (anchored && st.signallingVip() && !sgsn.anchorCreate(req, d, create, st)) {
                pool.retire(create);
                return;
            }
            req.keepCopy();
            req.state(create);
        } else if (anchored) {
            GtpTx.Follow state = sgsn.follow(req, d, s, st);
            if (state != null) {
                req.state(state);
            }
        }
    }

    /** The anchored session a transaction goes through or opened ({@code gtp signalling vip}), or null. */
    private static GtpSession anchoredOf(GtpTx state) {
        GtpSession s = state instanceof GtpTx.Follow f ? f.via()
                : state instanceof GtpTx.Create c ? (c.opened() != null ? c.opened() : c.via()) : null;
        return s != null && s.anchored() ? s : null;
    }

    @Override
    public void toReal(ByteBuf buf, Transaction<GtpTx> tx) {
        GtpDialect d = dialect(buf);
        d.writeSequence(buf, (int) tx.upstreamId(), true);
        GtpSession via = tx.state() instanceof GtpTx.Follow f ? f.via()
                : tx.state() instanceof GtpTx.Create c ? c.via() : null;
        if (via != null && via.anchored()) {
            d.writeHeaderTeid(buf, via.ggsnTeid());
        }
        sgsn.toGgsn(d, buf, tx.state(), via, settings().vip());
    }

    @Override
    public void toClient(ByteBuf buf, Transaction<GtpTx> tx) {
        GtpDialect d = dialect(buf);
        d.writeSequence(buf, (int) tx.originalId(), false);
        byte[] vip = settings().vip();
        GtpSession s = vip == null ? null : anchoredOf(tx.state());
        // onResponse proved it anchorable; the wrap is again because a replayed answer skips that proof's wrap
        if (s != null && d.wrap(buf) && d.anchorable(vip.length)) {
            d.anchor(vip, s.teid());
        }
        sgsn.toSgsn(d, buf, tx.state());
    }

    @Override
    public void toClientRequest(ByteBuf buf, Transaction<GtpTx> tx) {
        sgsn.toClientRequest(dialect(buf), buf, tx);
    }

    @Override
    public ResponseVerdict onClientAnswer(ByteBuf buf, Transaction<GtpTx> tx) {
        return sgsn.onClientAnswer(dialect(buf), buf, tx);
    }

    @Override
    public void toRealAnswer(ByteBuf buf, Transaction<GtpTx> tx) {
        sgsn.toRealAnswer(dialect(buf), buf, tx);
    }

    @Override
    public long responseId(ByteBuf buf) {
        if (buf.readableBytes() < 8) {
            return -1;
        }
        GtpDialect d = dialect(buf);
        return d == null ? -1 : d.responseId(buf);
    }

    @Override
    public ResponseVerdict onResponse(ByteBuf buf, Transaction<GtpTx> tx) {
        GtpDialect d = dialect(buf);
        GtpVserverSettings st = settings();
        if (tx.answered() || !st.inspect()) {
            if (d != null) {
                module.gsns().seen(GsnTable.Side.GGSN, tx.real().address(), d.version(), -1, clock.nanoTime());
            }
            boolean unanchorable = st.signallingVip() && anchoredOf(tx.state()) != null
                    && (d == null || !d.wrap(buf) || !d.anchorable(st.vip().length));
            return unanchorable ? tx.drop(VIP_FAMILY_MISMATCH) : ResponseVerdict.FORWARD;
        }
        if (d == null || !d.wrap(buf)) {
            return ResponseVerdict.DROP; // malformed answer: never half-forwarded; the request times out
        }
        if (st.signallingVip() && !d.anchorable(st.vip().length)) {
            // the GGSN's own address must not reach the SGSN, and a changed IE length cannot be patched in place
            return tx.drop(VIP_FAMILY_MISMATCH);
        }
        // a restart shows in the Recovery of create answers too; the gtp-echo probe acts on it
        module.gsns().seen(GsnTable.Side.GGSN, tx.real().address(), d.version(),
                tx.state() instanceof GtpTx.Create ? d.recovery() : -1, clock.nanoTime());
        int cause = d.cause();
        if (cause < 0) {
            return ResponseVerdict.FORWARD;
        }
        metrics.countCause(d.version(), cause);
        GtpCause.Action action = d.action(cause);
        GtpTx state = tx.state();
        if (state instanceof GtpTx.Create create) {
            if (action == GtpCause.Action.ACCEPTED) {
                return learn(d, create, tx, st) ? ResponseVerdict.FORWARD_SESSION : tx.drop(NO_FREE_TEID);
            }
            return action == GtpCause.Action.NODE_FAILURE ? ResponseVerdict.REASSIGN : ResponseVerdict.FORWARD;
        }
        sgsn.onGgsnAnswer(state, action);
        boolean gone = action == GtpCause.Action.ACCEPTED || d.contextGone(cause); // the GGSN no longer has it
        if (state instanceof GtpTx.End e) {
            if (gone) {
                module.sessions().close(e.session(), e.generation()); // only the context the delete named
            }
        } else if (state instanceof GtpTx.Follow f && f.ends() != null && gone) {
            module.sessions().close(f.ends());
        }
        return ResponseVerdict.FORWARD;
    }

    /**
     * Opens the session of an accepted create with the GGSN's control TEID and signalling address;
     * under {@code gtp signalling vip} under a TEID of mclb's (false when none is free).
     */
    private boolean learn(GtpDialect d, GtpTx.Create create, Transaction<GtpTx> tx, GtpVserverSettings st) {
        byte[] ggsn = ggsnAddresses.intern(address, d.learnedAddress(address));
        long idleNs = st.imsiSeconds() * 1_000_000_000L;
        BindingTable<GtpSession> sessions = module.sessions();
        int ggsnTeid = d.learnedTeid();
        GtpSession s;
        GtpSession known = sessions.get(create.imsiRaw(), create.nsapi());
        if (known != null && known.renewableFor(tx.real(), idleNs, st.signallingVip()) && sessions.startRenewal(known)) {
            // the subscriber re-created on the same GGSN: the same object stands for the new context
            known.renewFor(ggsnTeid, ggsn);
            sessions.finishRenewal(known, GtpSession.alias(d.version(), ggsnTeid), clock.nanoTime());
            tx.real().release(); // the session keeps the connection it holds; the one kept for this answer goes
            create.opened(known);
            return true;
        }
        if (st.signallingVip()) {
            int mine = create.mclbTeid() != 0 ? create.mclbTeid() : module.teids().next(sessions);
            if (mine == 0) {
                return false;
            }
            InetSocketAddress sgsnAt = create.mclbTeid() == 0 ? null : SgsnAnchor.signalling(create.sgsnAddress(), d.version());
            s = new GtpSession(create.imsiRaw(), create.nsapi(), tx.real(), GtpSession.alias(d.version(), mine), ggsnTeid,
                    true, ggsn, create.sgsnTeid(), sgsnAt, clock.nanoTime(), idleNs);
        } else {
            s = new GtpSession(create.imsiRaw(), create.nsapi(), tx.real(), GtpSession.alias(d.version(), ggsnTeid),
                    ggsnTeid, false, ggsn, clock.nanoTime(), idleNs);
        }
        create.opened(sessions.open(s));
        return true;
    }

    @Override
    public void retired(GtpTx state) {
        pool.retire(state);
    }

    /** This loop's pool of create states (tests). */
    GtpTxPool pool() {
        return pool;
    }

    @Override
    public ByteBuf unsolicited(ByteBuf buf, InetSocketAddress real) {
        if (!buf.isReadable()) {
            return null;
        }
        GtpDialect d = dialect(buf);
        if (d != null && d.wrap(buf) && d.isEchoRequest() && d.hasSequence()) {
            return d.echoAnswer(module.recovery());
        }
        return null;
    }

    static void putLong(byte[] b, long v) {
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
    }
}
