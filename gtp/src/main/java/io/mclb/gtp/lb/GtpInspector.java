package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.net.DropReason;
import io.mclb.sticky.StickyKind;
import io.mclb.time.NanoClock;
import io.mclb.transaction.RequestContext;
import io.mclb.transaction.ResponseVerdict;
import io.mclb.transaction.ServiceInspector;
import io.mclb.transaction.Transaction;
import io.mclb.vserver.VirtualServer;
import io.mclb.vserver.VserverSnapshot;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * The GTP service on one event loop (GTPv0 on 3386, v1/v2 on 2123; the version is read from each
 * datagram's first octet). Confined to its loop: the flyweights and scratch arrays are reused for
 * every datagram; nothing is allocated per datagram except an Echo Response, and per create the
 * small {@link CreateInfo} carried on the transaction. Never throws: a datagram it cannot read is
 * dropped with a {@link GtpDrops} reason.
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
 */
public final class GtpInspector implements ServiceInspector {
    public static final DropReason CARRIER_NOT_ALLOWED = DropReason.of("gtp_carrier_not_allowed");
    public static final DropReason UNKNOWN_TEID = DropReason.of("gtp_unknown_teid");
    public static final DropReason NO_SEQUENCE = DropReason.of("gtp_no_sequence");
    public static final DropReason RESPONSE_TO_VIP = DropReason.of("gtp_response_to_vip");
    public static final DropReason NOTIFICATION_REFUSED = DropReason.of("gtp_notification_refused");

    /** What an accepted create needs to open its session. */
    record CreateInfo(long imsiRaw, int nsapi) {
    }

    private final VirtualServer vs;
    private final GtpModule module;
    private final GtpMetrics metrics;
    private final NanoClock clock;
    private final GtpNotifications notifications;
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    private final byte[] imsiBytes = new byte[8];
    /** Of the datagram being classified: see {@link MessageFingerprint}. */
    private long fingerprint;
    private final byte[] address = new byte[16];
    private VserverSnapshot lastSnapshot;
    private GtpVserverSettings settings;

    public GtpInspector(VirtualServer vs, GtpModule module, GtpMetrics metrics) {
        this.vs = vs;
        this.module = module;
        this.metrics = metrics;
        this.clock = vs.clock();
        this.notifications = new GtpNotifications(vs, module, metrics);
    }

    /** The settings of the current snapshot, re-parsed only when a reload swapped it. */
    GtpVserverSettings settings() {
        VserverSnapshot s = vs.snapshot();
        if (s != lastSnapshot) {
            settings = GtpVserverSettings.of(s.config());
            lastSnapshot = s;
        }
        return settings;
    }

    @Override
    public int idBits() {
        return 16;
    }

    @Override
    public void classify(ByteBuf buf, InetSocketAddress client, RequestContext req) {
        GtpVserverSettings st = settings();
        if (!buf.isReadable()) {
            req.drop(GtpDrops.TRUNCATED_HEADER);
            return;
        }
        fingerprint = MessageFingerprint.of(buf);
        switch ((buf.getByte(buf.readerIndex()) & 0xFF) >>> 5) {
            case 0 -> classifyV0(buf, req, st);
            case 1 -> classifyV1(buf, client, req, st);
            case 2 -> classifyV2(buf, req, st);
            default -> req.drop(GtpDrops.UNSUPPORTED_VERSION);
        }
    }

    private void classifyV0(ByteBuf buf, RequestContext req, GtpVserverSettings st) {
        if (!v0.wrap(buf)) {
            req.drop(v0.reason());
            return;
        }
        int type = v0.messageType();
        int seq = v0.sequence();
        if (type == GtpMessageType.V1_ECHO_REQUEST) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV0(out, seq, module.recovery());
            req.local(out);
            return;
        }
        if (GtpMessageType.v1(type).isResponse()) {
            req.drop(RESPONSE_TO_VIP);
            return;
        }
        long packed = v0.tidImsi(st.tidLayout());
        long raw = v0.tidImsiRaw(st.tidLayout());
        int nsapi = v0.tidNsapi(st.tidLayout());
        if (type == GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST) {
            create(req, st, seq, type, packed, raw, nsapi);
            return;
        }
        if (!st.inspect()) {
            req.request(seq, fingerprint);
            return;
        }
        // v0 has no TEID: the TID (IMSI + NSAPI) names the session
        GtpSessions.Session s = packed < 0 ? null : module.sessions().get(raw, nsapi);
        follow(req, s, seq, type, type == GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST, false, nsapi);
    }

    private void classifyV1(ByteBuf buf, InetSocketAddress client, RequestContext req, GtpVserverSettings st) {
        if (!v1.wrap(buf)) {
            req.drop(v1.reason());
            return;
        }
        int type = v1.messageType();
        if (!v1.hasSequence()) {
            req.drop(NO_SEQUENCE);
            return;
        }
        int seq = v1.sequence();
        if (type == GtpMessageType.V1_ECHO_REQUEST) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV1(out, seq, module.recovery());
            req.local(out);
            return;
        }
        if (GtpNotifications.isNotification(type)) {
            notifications.handle(v1, client, req, st);
            return;
        }
        if (GtpMessageType.v1(type).isResponse()) {
            req.drop(RESPONSE_TO_VIP);
            return;
        }
        int teid = v1.teid();
        boolean isCreate = type == GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST;
        if (isCreate && teid == 0) {
            create(req, st, seq, type, v1.ies().imsi(), v1.ies().imsiRaw(), v1.ies().nsapi());
            return;
        }
        if (!st.inspect() || teid == 0) {
            req.request(seq, fingerprint);
            return;
        }
        follow(req, module.sessions().byTeid(teid), seq, type, type == GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST,
                isCreate, v1.ies().nsapi());
    }

    private void classifyV2(ByteBuf buf, RequestContext req, GtpVserverSettings st) {
        if (!v2.wrap(buf)) {
            req.drop(v2.reason());
            return;
        }
        int type = v2.messageType();
        int seq = v2.sequence();
        if (type == GtpMessageType.V2_ECHO_REQUEST) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV2(out, seq, module.recovery());
            req.local(out);
            return;
        }
        if (GtpMessageType.v2(type).isResponse()) {
            req.drop(RESPONSE_TO_VIP);
            return;
        }
        int teid = v2.teid();
        if (type == GtpMessageType.V2_CREATE_SESSION_REQUEST && teid == 0) {
            create(req, st, seq, type, v2.imsi(), v2.imsiRaw(), v2.ebi());
            return;
        }
        if (!st.inspect() || teid == 0) {
            req.request(seq, fingerprint);
            return;
        }
        follow(req, module.sessions().byTeid(teid), seq, type, type == GtpMessageType.V2_DELETE_SESSION_REQUEST,
                false, -1);
    }

    private void create(RequestContext req, GtpVserverSettings st, int seq, int type, long packedImsi, long imsiRaw,
                        int nsapi) {
        DropReason bad = GtpDrops.forImsi(packedImsi);
        if (bad != null) {
            req.drop(bad);
            return;
        }
        if (st.inspect() && !st.carrierAllowed(packedImsi)) {
            req.drop(CARRIER_NOT_ALLOWED);
            return;
        }
        req.request(seq, fingerprint);
        if (st.stickyImsi()) {
            putLong(imsiBytes, imsiRaw);
            req.stickyKey().set(StickyKind.GTP_IMSI, st.stickyGroup(), imsiBytes, 0, 8);
            req.sticky(st.imsiSeconds(), st.inspect());
        }
        if (st.inspect()) {
            req.keepCopy();
            req.attach(new CreateInfo(imsiRaw, Math.max(nsapi, 0)));
        }
    }

    /**
     * A request inside a known session goes to the session's real. A delete carries the session
     * (closed when the delete is accepted); a v1 secondary create carries a {@link CreateInfo}.
     */
    private void follow(RequestContext req, GtpSessions.Session s, int seq, int type, boolean isDelete,
                        boolean isCreate, int nsapi) {
        if (s == null) {
            req.drop(UNKNOWN_TEID);
            return;
        }
        s.touch(clock.nanoTime());
        req.followUp(seq, fingerprint, s.real().id());
        if (isDelete) {
            GtpSessions.Session target = s;
            if (nsapi >= 0 && nsapi != s.nsapi()) {
                GtpSessions.Session other = module.sessions().get(s.imsiRaw(), nsapi);
                target = other != null ? other : s;
            }
            req.attach(target);
        } else if (isCreate) {
            req.keepCopy();
            req.attach(new CreateInfo(s.imsiRaw(), Math.max(nsapi, 0)));
        }
    }

    @Override
    public void writeRequestId(ByteBuf buf, long upstreamId) {
        writeSequence(buf, (int) upstreamId, true);
    }

    @Override
    public void writeResponseId(ByteBuf buf, long originalId) {
        writeSequence(buf, (int) originalId, false);
    }

    /** Patches the header's sequence in place; classify/responseId already proved the header is there. */
    private static void writeSequence(ByteBuf buf, int id, boolean keepCommandBit) {
        int ri = buf.readerIndex();
        int flags = buf.getByte(ri) & 0xFF;
        switch (flags >>> 5) {
            case 0 -> buf.setShort(ri + 4, id);
            case 1 -> buf.setShort(ri + 8, id);
            default -> {
                int off = ri + ((flags & 0x08) != 0 ? 8 : 4);
                int v = keepCommandBit ? (buf.getUnsignedMedium(off) & 0x800000) | (id & 0xFFFF) : id;
                buf.setMedium(off, v);
            }
        }
    }

    @Override
    public long responseId(ByteBuf buf) {
        int ri = buf.readerIndex();
        int n = buf.readableBytes();
        if (n < 8) {
            return -1;
        }
        int flags = buf.getByte(ri) & 0xFF;
        int type = buf.getByte(ri + 1) & 0xFF;
        switch (flags >>> 5) {
            case 0 -> {
                return n >= GtpV0Message.HEADER_LENGTH && !GtpMessageType.v1(type).isRequest()
                        ? buf.getUnsignedShort(ri + 4) : -1;
            }
            case 1 -> {
                return n >= 12 && (flags & 0x02) != 0 && !GtpMessageType.v1(type).isRequest()
                        ? buf.getUnsignedShort(ri + 8) : -1;
            }
            case 2 -> {
                if (GtpMessageType.v2(type).isRequest()) {
                    return -1;
                }
                int off = (flags & 0x08) != 0 ? 8 : 4;
                return n >= off + 4 ? buf.getUnsignedMedium(ri + off) & 0xFFFF : -1;
            }
            default -> {
                return -1;
            }
        }
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf buf, Transaction tx) {
        if (!settings().inspect()) {
            return ResponseVerdict.FORWARD;
        }
        int version = (buf.getByte(buf.readerIndex()) & 0xFF) >>> 5;
        int cause;
        GtpCause.Action action;
        if (version == 0 && v0.wrap(buf)) {
            cause = v0.ies().cause();
            action = GtpCause.classifyV1(cause);
        } else if (version == 1 && v1.wrap(buf)) {
            cause = v1.ies().cause();
            action = GtpCause.classifyV1(cause);
        } else if (version == 2 && v2.wrap(buf)) {
            cause = v2.cause();
            action = GtpCause.classifyV2(cause);
        } else {
            return ResponseVerdict.DROP; // malformed answer: never half-forwarded; the request times out
        }
        if (cause < 0) {
            return ResponseVerdict.FORWARD;
        }
        metrics.countCause(version, cause);
        Object a = tx.attachment();
        if (a instanceof CreateInfo ci) {
            if (action == GtpCause.Action.ACCEPTED) {
                learn(version, ci, tx.real());
                return ResponseVerdict.FORWARD_SESSION;
            }
            return action == GtpCause.Action.NODE_FAILURE ? ResponseVerdict.REASSIGN : ResponseVerdict.FORWARD;
        }
        if (a instanceof GtpSessions.Session s && (action == GtpCause.Action.ACCEPTED
                || cause == GtpCause.V1_NON_EXISTENT && version < 2
                || cause == GtpCause.V2_CONTEXT_NOT_FOUND && version == 2)) {
            module.sessions().close(s); // the GGSN no longer has it either way
        }
        return ResponseVerdict.FORWARD;
    }

    /** Opens the session of an accepted create with the GGSN's control TEID and signalling address. */
    private void learn(int version, CreateInfo ci, RealServer real) {
        int teid = 0;
        int len = 0;
        if (version == 1) {
            teid = v1.ies().hasTeidControl() ? v1.ies().teidControl(false) : 0;
            len = v1.ies().gsnAddress(0, address);
        } else if (version == 2 && v2.fteid(1, fteid)) {
            teid = fteid.teid();
            if (fteid.hasIpv6() && fteid.ipv6(address)) {
                len = 16;
            } else if (fteid.hasIpv4()) {
                putInt(address, fteid.ipv4());
                len = 4;
            }
        } else if (version == 0) {
            len = v0.ies().gsnAddress(0, address);
        }
        byte[] ggsn = len == 0 ? null : Arrays.copyOf(address, len);
        long idleNs = settings().imsiSeconds() * 1_000_000_000L;
        module.sessions().open(ci.imsiRaw(), ci.nsapi(), real, teid, ggsn, clock.nanoTime(), idleNs);
    }

    @Override
    public ByteBuf unsolicited(ByteBuf buf, InetSocketAddress real) {
        if (!buf.isReadable()) {
            return null;
        }
        int version = (buf.getByte(buf.readerIndex()) & 0xFF) >>> 5;
        if (version == 0 && v0.wrap(buf) && v0.messageType() == GtpMessageType.V1_ECHO_REQUEST) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV0(out, v0.sequence(), module.recovery());
            return out;
        }
        if (version == 1 && v1.wrap(buf) && v1.messageType() == GtpMessageType.V1_ECHO_REQUEST && v1.hasSequence()) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV1(out, v1.sequence(), module.recovery());
            return out;
        }
        if (version == 2 && v2.wrap(buf) && v2.messageType() == GtpMessageType.V2_ECHO_REQUEST) {
            ByteBuf out = buf.alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
            GtpEchoEncoder.writeV2(out, v2.sequence(), module.recovery());
            return out;
        }
        return null;
    }

    static void putLong(byte[] b, long v) {
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
    }

    private static void putInt(byte[] b, int v) {
        b[0] = (byte) (v >>> 24);
        b[1] = (byte) (v >>> 16);
        b[2] = (byte) (v >>> 8);
        b[3] = (byte) v;
    }
}
