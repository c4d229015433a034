package io.mclb.gtp.lb;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingKind;
import io.mclb.farm.RealServer;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A GTP session mclb saw established: one per (IMSI, NSAPI or EBI), on the GGSN that accepted the
 * create, indexed by a control TEID (the binding's alias) so that later requests addressed to that
 * TEID follow it. It holds one of the GGSN's connections, which {@code predictor leastconns}
 * balances on; the sessions live in the runtime's {@link io.mclb.binding.BindingTable} of
 * {@link #KIND}, which ends them on delete, idle expiry or a GGSN restart purge.
 *
 * <p>Which TEID is the alias depends on the virtual server. Normally it is the GGSN's own control
 * TEID, which the SGSN addresses directly. Under {@code gtp signalling vip} the session is
 * <em>anchored</em>: the alias is a TEID mclb allocated ({@link GtpTeidAllocator}) and gave the SGSN
 * in place of the GGSN's, and {@link #ggsnTeid()} keeps the GGSN's own, which mclb writes back into
 * every follow-up. This mapping (alias, ggsnTeid, anchored) is the state an HA replica needs to
 * keep routing anchored follow-ups after a takeover.
 *
 * <p>The alias is scoped by GTP version ({@link #alias(int, int)}): a v1 request names a PDP
 * context, a v2 request a PGW session, and TEID spaces of v1 and v2 peers overlap (osmo-ggsn and
 * many PGWs count from 1). Without the scope a v2 session shadowed the v1 session with the same
 * TEID, its follow-ups went to the v2 session's GGSN, and an accepted v1 Delete ended the v2
 * session, whose own Delete then found no session.
 *
 * <p>The SGSN's side is anchored the same way when its create named a control identity: the GGSN
 * was given the virtual address and the same mclb TEID in place of the SGSN's ({@link #sgsnTeid()}
 * and {@link #sgsnSignalling()} keep the SGSN's own), so the GGSN's own requests come to mclb
 * with the alias and are relayed to the SGSN with its TEID. One TEID names the session at mclb in
 * both directions; the sender (the session's GGSN or not) tells them apart.
 *
 * <p>A session that is not anchored is renewed in place ({@link #renewFor}) when its subscriber's
 * create is accepted again by the same GGSN (an SGSN restart, a re-attach): the steady state of a
 * known population allocates no session per create. A delete's transaction therefore names the
 * context, not just the object ({@link GtpTx.End}: the session and its
 * {@link io.mclb.binding.Binding#generation() generation}). Anchored sessions are never renewed: their
 * follow-up states and mclb's TEID name the object.
 */
public final class GtpSession extends Binding {
    public static final BindingKind<GtpSession> KIND = BindingKind.of("gtp-session");
    /** Alias bit of a v2 session; v1 aliases are the bare TEID (as streams from older nodes carry them). */
    static final long V2_ALIAS = 1L << 32;

    /**
     * Volatile: a session that is not anchored is renewed in place when its subscriber re-creates the
     * context on the same GGSN ({@link #renewFor}); the GGSN's TEID and address are then the new context's.
     */
    private volatile byte[] ggsnAddress;
    private volatile int ggsnTeid;
    /**
     * The SGSN's own control TEID and where its GGSN-initiated requests go (port 2123; v0: 3386);
     * null: not anchored. Volatile: an accepted inter-SGSN update ({@link #moveSgsn}) swaps it whole.
     */
    private volatile SgsnSide sgsn;
    /**
     * {@link #ggsnAddress} as an address, made once for an anchored session: its sender check
     * ({@link #isGgsn}) allocates nothing. Null otherwise (never asked on the data path).
     */
    private final InetAddress ggsnInet;
    /**
     * The transaction states of an anchored session's follow-ups, made once: no allocation per
     * request; {@link #follow} non-null is also what says the session is anchored (no flag of its
     * own: one byte more would grow every session by 8 now that {@link Binding} carries its generation). Null for a session that is not anchored, whose follow-ups carry the session itself
     * or nothing: about 100 bytes less per session, and per accepted create.
     */
    private final GtpTx.Follow follow;
    private final GtpTx.Follow ending;
    private final GtpTx.FromGgsn ggsnRequest;
    private final GtpTx.FromGgsn ggsnDelete;

    /** A session the SGSN addresses by the GGSN's own control TEID {@code teid} (0 if none was learnt). */
    GtpSession(long imsiRaw, int nsapi, RealServer real, int teid, byte[] ggsnAddress, long nowNs, long idleNs) {
        this(imsiRaw, nsapi, real, teid, teid, false, ggsnAddress, nowNs, idleNs);
    }

    /**
     * @param alias    the TEID the SGSN addresses: the GGSN's own, or mclb's when {@code anchored}
     * @param ggsnTeid the GGSN's own control TEID, 0 if none was learnt
     * @param anchored {@code gtp signalling vip}: {@code alias} is mclb's and follow-ups carry it
     */
    GtpSession(long imsiRaw, int nsapi, RealServer real, int alias, int ggsnTeid, boolean anchored,
               byte[] ggsnAddress, long nowNs, long idleNs) {
        this(imsiRaw, nsapi, real, alias(1, alias), ggsnTeid, anchored, ggsnAddress, 0, null, nowNs, idleNs);
    }

    /** @param alias {@link #alias(int, int)} of the version and the TEID the SGSN addresses */
    GtpSession(long imsiRaw, int nsapi, RealServer real, long alias, int ggsnTeid, boolean anchored,
               byte[] ggsnAddress, long nowNs, long idleNs) {
        this(imsiRaw, nsapi, real, alias, ggsnTeid, anchored, ggsnAddress, 0, null, nowNs, idleNs);
    }

    /** {@link #GtpSession(long, int, RealServer, long, int, boolean, byte[], int, InetSocketAddress, long, long)} of a v1 TEID. */
    GtpSession(long imsiRaw, int nsapi, RealServer real, int alias, int ggsnTeid, boolean anchored,
               byte[] ggsnAddress, int sgsnTeid, InetSocketAddress sgsnSignalling, long nowNs, long idleNs) {
        this(imsiRaw, nsapi, real, alias(1, alias), ggsnTeid, anchored, ggsnAddress, sgsnTeid, sgsnSignalling, nowNs,
                idleNs);
    }

    /**
     * An anchored session whose SGSN side is anchored too ({@code sgsnSignalling} non-null).
     *
     * @param alias          {@link #alias(int, int)} of the version and the TEID the SGSN addresses
     * @param sgsnTeid       the SGSN's own control TEID, written into the GGSN's requests for it
     * @param sgsnSignalling the SGSN's signalling address (port 2123), where those requests go
     */
    GtpSession(long imsiRaw, int nsapi, RealServer real, long alias, int ggsnTeid, boolean anchored,
               byte[] ggsnAddress, int sgsnTeid, InetSocketAddress sgsnSignalling, long nowNs, long idleNs) {
        super(imsiRaw, nsapi, real, alias, nowNs, idleNs);
        this.ggsnTeid = ggsnTeid;
        this.ggsnAddress = ggsnAddress;
        this.sgsn = sgsnSignalling == null ? null : new SgsnSide(sgsnTeid, sgsnSignalling);
        this.ggsnInet = anchored ? inet(ggsnAddress) : null;
        this.follow = anchored ? new GtpTx.Follow(this, null) : null;
        this.ending = anchored ? new GtpTx.Follow(this, this) : null;
        this.ggsnRequest = anchored ? new GtpTx.FromGgsn(this, null) : null;
        this.ggsnDelete = anchored ? new GtpTx.FromGgsn(this, this) : null;
    }

    private static InetAddress inet(byte[] address) {
        try {
            return address == null ? null : InetAddress.getByAddress(address);
        } catch (java.net.UnknownHostException e) {
            return null; // only for a length other than 4 or 16, which no caller passes
        }
    }

    /** The table alias of control TEID {@code teid} on GTP {@code version}: 0 (not indexed) for TEID 0. */
    static long alias(int version, int teid) {
        long t = teid & 0xFFFF_FFFFL;
        return t == 0 ? 0 : version == 2 ? V2_ALIAS | t : t;
    }

    /**
     * Whether {@code table}'s session {@code this}, of the same subscriber, can stand for the context
     * an accepted create opens on {@code real} with the idle lifetime {@code idleNs}: neither is anchored
     * (those name the object in their follow-up states) and nothing else would differ.
     */
    boolean renewableFor(RealServer real, long idleNs, boolean anchoredCreate) {
        return follow == null && !anchoredCreate && real() == real && idleNs() == idleNs;
    }

    /**
     * This session now stands for the subscriber's new context on the same GGSN: its TEID and
     * signalling address. Only between {@link io.mclb.binding.BindingTable#startRenewal} and
     * {@code finishRenewal}, which re-indexes the alias.
     */
    void renewFor(int ggsnTeid, byte[] ggsnAddress) {
        this.ggsnTeid = ggsnTeid;
        if (this.ggsnAddress != ggsnAddress) { // interned: on the same GGSN it is the same array, and a
            this.ggsnAddress = ggsnAddress;    // reference store into an old session is a card for G1 to refine
        }
    }

    /** The GTP version of the session's follow-ups: 2, or 1 (v0 sessions are found by IMSI, never by alias). */
    public int version() {
        return (alias() & V2_ALIAS) != 0 ? 2 : 1;
    }

    public long imsiRaw() {
        return owner();
    }

    public int nsapi() {
        return sub();
    }

    /** The control TEID the SGSN addresses this session by (mclb's when {@link #anchored()}). */
    public int teid() {
        return (int) alias();
    }

    /** The GGSN's own control TEID (equal to {@link #teid()} unless anchored); 0 if none was learnt. */
    public int ggsnTeid() {
        return ggsnTeid;
    }

    /** Whether the SGSN knows this session by mclb's TEID and the virtual address ({@code gtp signalling vip}). */
    public boolean anchored() {
        return follow != null;
    }

    /** Whether the GGSN knows this session by the virtual address and mclb's TEID as the SGSN's. */
    public boolean sgsnAnchored() {
        return sgsn != null;
    }

    /** The SGSN's own control TEID (when {@link #sgsnAnchored()}). */
    public int sgsnTeid() {
        SgsnSide side = sgsn;
        return side == null ? 0 : side.teid();
    }

    /** The SGSN's signalling address and port 2123 (when {@link #sgsnAnchored()}), else null. */
    public InetSocketAddress sgsnSignalling() {
        SgsnSide side = sgsn;
        return side == null ? null : side.signalling();
    }

    /** The current SGSN side, or null when not anchored. */
    SgsnSide sgsnSide() {
        return sgsn;
    }

    /**
     * An inter-SGSN routing area update the GGSN accepted: the GGSN's later requests go to
     * {@code next}. The caller re-sends the binding ({@link io.mclb.binding.BindingTable#changed}).
     */
    void moveSgsn(SgsnSide next) {
        sgsn = next;
    }

    /** The standby replaces its copy when the SGSN side moved ({@link io.mclb.binding.BindingTable#openReplicated}). */
    @Override
    protected boolean sameStateAs(io.mclb.binding.Binding replica) {
        SgsnSide mine = sgsn;
        SgsnSide theirs = replica instanceof GtpSession g ? g.sgsn : null;
        return mine == null ? theirs == null
                : theirs != null && mine.teid() == theirs.teid() && mine.signalling().equals(theirs.signalling());
    }

    /**
     * The SGSN's control identity as mclb keeps it: its own TEID (0 on v0), where its requests go,
     * and that address's octets (compared with each SGSN update without allocating).
     */
    record SgsnSide(int teid, InetSocketAddress signalling, byte[] address) {
        SgsnSide(int teid, InetSocketAddress signalling) {
            this(teid, signalling, signalling.getAddress().getAddress());
        }

        /** Whether a request naming the first {@code len} octets of {@code named} and {@code teid} names this SGSN. */
        boolean names(byte[] named, int len, int teid) {
            return teid == this.teid && java.util.Arrays.equals(address, 0, address.length, named, 0, len);
        }
    }

    /**
     * Whether {@code sender} is this session's GGSN: the real's address or the signalling address
     * the GGSN advertised. Allocation-free for an anchored session (the only kind asked on the data path).
     */
    boolean isGgsn(InetAddress sender) {
        return sender.equals(real().address()) || sender.equals(ggsnInet != null ? ggsnInet : inet(ggsnAddress));
    }

    /** The signalling address the GGSN advertised in its answer (4 or 16 octets), or null. */
    public byte[] ggsnAddress() {
        return ggsnAddress;
    }

    /** The state of a follow-up of this session; {@code ends}: a delete of this very session. */
    GtpTx.Follow follow(boolean ends) {
        GtpTx.Follow f = ends ? ending : follow;
        return f != null ? f : new GtpTx.Follow(this, ends ? this : null);
    }

    /** The state of a request this session's GGSN sends for the SGSN; {@code ends}: a delete of this very session. */
    GtpTx.FromGgsn ggsnRequest(boolean ends) {
        GtpTx.FromGgsn r = ends ? ggsnDelete : ggsnRequest;
        return r != null ? r : new GtpTx.FromGgsn(this, ends ? this : null);
    }
}
