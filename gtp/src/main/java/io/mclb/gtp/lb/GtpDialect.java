package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpHeader;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * What the GTP inspector reads from, and patches in, the messages of one GTP version: the routing
 * facts (message kind, sequence, TEID or TID, IMSI, NSAPI), the answer's cause and what the
 * session learns from it. The inspector holds one per version in a table indexed by the version
 * bits of the first octet, so no routing step switches on the version (gtp-guard's and
 * keepalived's dispatch-by-table habit). One instance per event loop: each wraps a reusable
 * flyweight; valid after {@link #wrap} returned true.
 */
abstract class GtpDialect {
    /** The version's message flyweight, seen through the header every version shares. */
    private final GtpHeader header;
    private final int version;
    private final int echoRequestType;

    GtpDialect(GtpHeader header, int version, int echoRequestType) {
        this.header = header;
        this.version = version;
        this.echoRequestType = echoRequestType;
    }

    /** 0, 1 or 2. */
    final int version() {
        return version;
    }

    /** Validates the whole message; false with {@link #reason()}. */
    final boolean wrap(ByteBuf buf) {
        return header.wrap(buf);
    }

    final DropReason reason() {
        return header.reason();
    }

    /** Why a wrapped request must not be forwarded (a spec violation, {@link GtpHeader#violation()}), or null. */
    DropReason requestViolation() {
        return header.violation();
    }

    final int messageType() {
        return header.messageType();
    }

    /** Whether the header carries a sequence number (v1: S flag; v0, v2: always). */
    final boolean hasSequence() {
        return header.hasSequence();
    }

    final int sequence() {
        return header.sequence();
    }

    final boolean isEchoRequest() {
        return header.messageType() == echoRequestType;
    }

    final boolean isResponse() {
        return header.type().isResponse();
    }

    /** An Echo Response to the wrapped Echo Request, with mclb's Recovery, in a new buffer. */
    final ByteBuf echoAnswer(int recovery) {
        ByteBuf out = header.buffer().alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
        writeEcho(out, header.sequence(), recovery);
        return out;
    }

    /** Appends this version's Echo Response ({@link GtpEchoEncoder}). */
    abstract void writeEcho(ByteBuf out, int sequence, int recovery);

    /** A create that opens a session (v0: every create, its TID names the new context; v1, v2: TEID 0). */
    abstract boolean isInitialCreate();

    /** v1: a create addressed to a GGSN TEID, i.e. a secondary PDP context of a known session. */
    boolean isSecondaryCreate() {
        return false;
    }

    abstract boolean isDelete();

    /** A request with no session to follow even under inspection (v1, v2: TEID 0; v0 always names one). */
    abstract boolean unaddressed();

    /** Packed IMSI digits of a create ({@link io.mclb.gtp.Tbcd}), or a negative {@link io.mclb.gtp.GtpDrops#forImsi} code. */
    abstract long imsi(GtpVserverSettings st);

    /** The IMSI as its 8 raw TBCD octets (the sticky key and session owner). */
    abstract long imsiRaw(GtpVserverSettings st);

    /** NSAPI (v0, v1) or EBI (v2), -1 when absent. */
    abstract int nsapi(GtpVserverSettings st);

    /** The session a follow-up belongs to, or null. */
    abstract GtpSession session(BindingTable<GtpSession> sessions, GtpVserverSettings st);

    /**
     * Whether {@code s}, which {@link #session} returned, still stands for the context this request
     * addresses: a session renewed in place for its subscriber's new context meanwhile has another TEID.
     */
    abstract boolean names(GtpSession s);

    /** The answer's Cause value, -1 when it carries none. */
    abstract int cause();

    /** The Recovery (restart counter) the message carries, -1 when none (or the version has none here). */
    abstract int recovery();

    abstract GtpCause.Action action(int cause);

    /** Whether {@code cause} says the GGSN has no such context (the session ends either way). */
    abstract boolean contextGone(int cause);

    /** The GGSN's control TEID from an accepted create answer, 0 when none. */
    abstract int learnedTeid();

    /** Copies the GGSN's signalling address from an accepted create answer into {@code into}; its length, 0 if none. */
    abstract int learnedAddress(byte[] into);

    /**
     * {@code gtp signalling vip}: writes the GGSN's own control TEID into a follow-up's header, in
     * place (the header's TEID field; v0 has none: its TID routes). Needs no wrap.
     */
    abstract void writeHeaderTeid(ByteBuf buf, int teid);

    /**
     * Whether the wrapped answer's control-plane identity (what {@link #anchor} rewrites) is absent
     * or in the family of a virtual address of {@code vipLength} octets, so it can be rewritten in place.
     */
    abstract boolean anchorable(int vipLength);

    /**
     * {@code gtp signalling vip}: replaces, in place, the wrapped answer's control-plane identity
     * of the GGSN (v0, v1: the first GSN Address, and v1's TEID Control Plane; v2: every top-level
     * F-TEID of interface type S5/S8 PGW GTP-C) by {@code vip} and {@code teid}. User-plane
     * addresses and TEIDs are left alone. Only after {@link #anchorable} said yes.
     */
    abstract void anchor(byte[] vip, int teid);

    /**
     * {@code gtp signalling vip}, a wrapped request from the SGSN: copies the SGSN's control-plane
     * address (v1: the first GSN Address, "SGSN Address for signalling"; v2: the Sender F-TEID of
     * interface type S5/S8 SGW GTP-C) into {@code into} and returns its length; 0 when the request
     * names no control identity (no address or no TEID: nothing to anchor), -1 when it cannot be
     * rewritten in place (v2: an F-TEID with both an IPv4 and an IPv6 address). v0: the first GSN
     * Address alone (no TEID; the TID names the context).
     */
    int sgsnControlAddress(byte[] into) {
        return 0;
    }

    /** The SGSN's control TEID of a request {@link #sgsnControlAddress} found (v1 TEID Control Plane, v2 F-TEID TEID). */
    int sgsnControlTeid() {
        return 0;
    }

    /**
     * Replaces, in place, the wrapped request's SGSN control identity ({@link #sgsnControlAddress})
     * by {@code vip} (same length) and {@code teid}. User-plane identities are left alone.
     */
    void anchorSgsn(byte[] vip, int teid) {
    }

    /** The header TEID of a message without a wrap (0 when the header carries none). */
    int headerTeid(ByteBuf buf) {
        return 0;
    }

    /**
     * A wrapped request the GGSN of anchored session {@code s} sent: the session an accepted answer
     * ends (v1 Delete PDP Context Request: the NSAPI's, else {@code s}; v2 Delete Bearer Request
     * with a Linked EPS Bearer ID: the PDN connection's), or null when it ends none.
     */
    GtpSession endedByGgsn(GtpSession s, BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        return null;
    }

    /** v0, v1: the first GSN Address (the GGSN's signalling address) is absent or {@code vipLength} long. */
    static boolean signallingAddressFits(GtpV1IeIndex ies, int vipLength) {
        int len = ies.gsnAddressLength(0);
        return len == 0 || len == vipLength;
    }

    /** v0, v1: writes {@code vip} over the first GSN Address, when there is one. */
    static void anchorSignallingAddress(GtpV1IeIndex ies, byte[] vip) {
        int at = ies.gsnAddressOffset(0);
        if (at >= 0) {
            ies.buffer().setBytes(at, vip);
        }
    }

    /** Patches the header's sequence in place; {@code keepCommandBit}: v2 keeps a command-triggered MSB. */
    abstract void writeSequence(ByteBuf buf, int id, boolean keepCommandBit);

    /** The sequence of an answer from a real without a full wrap (cheap pre-match), or -1 when it is not an answer. */
    abstract long responseId(ByteBuf buf);
}
