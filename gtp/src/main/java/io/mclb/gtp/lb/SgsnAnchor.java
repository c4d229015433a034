package io.mclb.gtp.lb;

import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.net.DropReason;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.time.NanoClock;
import io.mclb.transaction.Transaction;
import io.netty.buffer.ByteBuf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * {@code gtp signalling vip}, the SGSN's side (gtp/README.md): the SGSN's control identity in a
 * create goes to the GGSN as the virtual address and the session's mclb TEID, so the GGSN sends its
 * own requests (Update / Delete PDP Context, Create / Update / Delete Bearer) to the virtual
 * address; they are relayed to the SGSN with its own TEID ({@link Classification#realRequest}) and
 * the SGSN's answer goes back with the GGSN's. Every rewrite is in place, lengths unchanged; user
 * plane identities are never touched.
 *
 * <pre>
 * SGSN --create (SGSN addr S, TEID-C s)--&gt; VIP --create (VIP, T)--&gt; GGSN
 * SGSN &lt;--answer (header s)-- VIP &lt;--answer (header T)-- GGSN
 * SGSN &lt;--request (header s)-- VIP:2123 &lt;--request (header T)-- GGSN   (T names the session)
 * SGSN --answer (header T)--&gt; VIP --answer (header g, the GGSN's own)--&gt; GGSN
 * </pre>
 *
 * One per {@link GtpInspector}, so per event loop: the scratch address array is its own.
 */
final class SgsnAnchor {
    /** A GGSN's request to the virtual address names no anchored session of that GGSN. */
    static final DropReason GGSN_UNKNOWN_TEID = DropReason.of("gtp_ggsn_unknown_teid");
    /** GGSN-initiated requests go to the SGSN's GTP-C port (29.060 / 29.274: requests to 2123). */
    static final int GTP_C_PORT = 2123;
    /** GTPv0 (GSM 09.60) signalling, both directions, is on 3386. */
    static final int GTP_V0_PORT = 3386;

    private final GtpModule module;
    private final GtpMetrics metrics;
    private final NanoClock clock;
    private final byte[] address = new byte[16];

    SgsnAnchor(GtpModule module, GtpMetrics metrics, NanoClock clock) {
        this.module = module;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Where the GGSN's requests for the SGSN go: its signalling address, port 2123 (v0: 3386). */
    static InetSocketAddress signalling(byte[] address, int version) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), version == 0 ? GTP_V0_PORT : GTP_C_PORT);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("SGSN address of " + address.length + " octets", e);
        }
    }

    /**
     * At classify: gives the create's session a TEID of mclb's now, so that {@link #toGgsn} can
     * hand it (and the virtual address) to the GGSN as the SGSN's control identity; false
     * (dropped) when the SGSN named an address of the other family or no TEID is free.
     */
    boolean anchorCreate(Classification<GtpTx> req, GtpDialect d, GtpTx.Create create, GtpVserverSettings st) {
        int len = d.sgsnControlAddress(address);
        if (len == 0) {
            return true; // nothing to anchor: a create without the SGSN's control identity
        }
        if (len != st.vip().length) {
            req.drop(GtpInspector.VIP_FAMILY_MISMATCH);
            return false;
        }
        int mine = module.teids().next(module.sessions());
        if (mine == 0) {
            req.drop(GtpInspector.NO_FREE_TEID);
            return false;
        }
        create.anchorSgsn(mine, d.sgsnControlTeid(), Arrays.copyOf(address, len));
        return true;
    }

    /**
     * At classify, an SGSN follow-up of anchored session {@code s}: its transaction state, or null
     * (dropped) when it names an SGSN address that cannot be anchored. An update naming another
     * SGSN control identity (inter-SGSN routing area update) carries it, for {@link #onGgsnAnswer}.
     */
    GtpTx.Follow follow(Classification<GtpTx> req, GtpDialect d, GtpSession s, GtpVserverSettings st) {
        GtpSession.SgsnSide side = s.sgsnSide();
        int len = side != null ? d.sgsnControlAddress(address) : 0;
        if (len != 0 && len != st.vip().length) {
            req.drop(GtpInspector.VIP_FAMILY_MISMATCH); // it must not reach the GGSN unanchored
            return null;
        }
        if (len == 0 || side.names(address, len, d.sgsnControlTeid())) {
            return s.follow(false);
        }
        GtpSession.SgsnSide next = new GtpSession.SgsnSide(d.sgsnControlTeid(),
                signalling(Arrays.copyOf(address, len), d.version()));
        return new GtpTx.Follow(s, null, next);
    }

    /** The GGSN accepted an SGSN follow-up: one that moved the session to another SGSN takes effect, replicated. */
    void onGgsnAnswer(GtpTx state, GtpCause.Action action) {
        if (state instanceof GtpTx.Follow f && f.moveTo() != null && action == GtpCause.Action.ACCEPTED) {
            f.via().moveSgsn(f.moveTo());
            module.sessions().changed(f.via());
            metrics.countSgsnChange();
        }
    }

    /**
     * At classify, a request a GGSN sent to the virtual address: under an anchored session of that
     * very GGSN whose SGSN side is anchored, relayed to the SGSN; anything else from a GGSN is refused.
     */
    void fromGgsn(Classification<GtpTx> req, GtpSession s, InetSocketAddress ggsn, GtpDialect d, int seq,
                  long fingerprint, GtpVserverSettings st) {
        if (s == null || !s.anchored() || !s.sgsnAnchored() || !s.isGgsn(ggsn.getAddress())) {
            req.drop(GGSN_UNKNOWN_TEID);
            return;
        }
        s.touch(clock.nanoTime());
        GtpSession ends = d.endedByGgsn(s, module.sessions(), st);
        req.realRequest(seq, fingerprint, s.sgsnSignalling())
                .state(ends == null ? s.ggsnRequest(false) : ends == s ? s.ggsnRequest(true) : new GtpTx.FromGgsn(s, ends));
    }

    /** An SGSN request on its way to the GGSN: the SGSN's control identity becomes {@code vip} and mclb's TEID. */
    void toGgsn(GtpDialect d, ByteBuf buf, GtpTx state, GtpSession via, byte[] vip) {
        int mine = state instanceof GtpTx.Create c ? c.mclbTeid() : via != null && via.sgsnAnchored() ? via.teid() : 0;
        if (mine != 0 && vip != null && d.wrap(buf) && d.sgsnControlAddress(address) == vip.length) {
            d.anchorSgsn(vip, mine);
        }
    }

    /** A GGSN answer on its way to the SGSN: addressed to mclb's TEID, it gets the SGSN's own. */
    void toSgsn(GtpDialect d, ByteBuf buf, GtpTx state) {
        int mine = 0;
        int own = 0;
        if (state instanceof GtpTx.Create c && c.mclbTeid() != 0) {
            mine = c.mclbTeid();
            own = c.sgsnTeid();
        } else if (state instanceof GtpTx.Follow f && f.via().sgsnAnchored()) {
            mine = f.via().teid();
            own = f.via().sgsnTeid();
        }
        if (mine != 0 && d.headerTeid(buf) == mine) {
            d.writeHeaderTeid(buf, own);
        }
    }

    /** A GGSN's request on its way to the SGSN: mclb's sequence on that path, the SGSN's own TEID. */
    void toClientRequest(GtpDialect d, ByteBuf buf, Transaction<GtpTx> tx) {
        d.writeSequence(buf, (int) tx.upstreamId(), true);
        if (tx.state() instanceof GtpTx.FromGgsn f) {
            d.writeHeaderTeid(buf, f.via().sgsnTeid());
        }
    }

    /** The SGSN's answer: never half-forwarded; an accepted delete from the GGSN ends its session. */
    ResponseVerdict onClientAnswer(GtpDialect d, ByteBuf buf, Transaction<GtpTx> tx) {
        if (d == null || !d.wrap(buf)) {
            return tx.drop(d == null ? GtpDrops.UNSUPPORTED_VERSION : d.reason());
        }
        int cause = d.cause();
        if (tx.answered() || cause < 0) {
            return ResponseVerdict.FORWARD;
        }
        metrics.countCause(d.version(), cause);
        GtpSession ends = tx.state() instanceof GtpTx.FromGgsn f ? f.ends() : null;
        if (ends != null && (d.action(cause) == GtpCause.Action.ACCEPTED || d.contextGone(cause))) {
            module.sessions().close(ends); // the SGSN no longer has it either way, as for its own delete
        }
        return ResponseVerdict.FORWARD;
    }

    /** The SGSN's answer on its way to the GGSN: the GGSN's own sequence and TEID. */
    void toRealAnswer(GtpDialect d, ByteBuf buf, Transaction<GtpTx> tx) {
        d.writeSequence(buf, (int) tx.originalId(), false);
        if (tx.state() instanceof GtpTx.FromGgsn f && d.headerTeid(buf) == f.via().teid()) {
            d.writeHeaderTeid(buf, f.via().ggsnTeid());
        }
    }
}
