package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Ie;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * GTPv2-C (29.274, port 2123): requests follow the TEID of the PGW's S5/S8 control F-TEID
 * (instance 1) learnt from the Create Session answer. The 24-bit sequence carries the 16-bit
 * upstream id; a command-triggered MSB is kept.
 */
final class GtpV2Dialect extends GtpDialect {
    private final GtpV2Message m;
    private final GtpV2Fteid fteid = new GtpV2Fteid();

    GtpV2Dialect() {
        this(new GtpV2Message());
    }

    private GtpV2Dialect(GtpV2Message m) {
        super(m, 2, GtpMessageType.V2_ECHO_REQUEST);
        this.m = m;
    }

    /** Only a response carries a piggybacked initial message (29.274 annex F): a request with P = 1 is refused. */
    @Override
    DropReason requestViolation() {
        return m.hasPiggyback() ? GtpDrops.BAD_PIGGYBACK : super.requestViolation();
    }

    @Override
    boolean isInitialCreate() {
        return m.messageType() == GtpMessageType.V2_CREATE_SESSION_REQUEST && m.teid() == 0;
    }

    @Override
    boolean isDelete() {
        return m.messageType() == GtpMessageType.V2_DELETE_SESSION_REQUEST;
    }

    @Override
    boolean unaddressed() {
        return m.teid() == 0;
    }

    @Override
    long imsi(GtpVserverSettings st) {
        return m.imsi();
    }

    @Override
    long imsiRaw(GtpVserverSettings st) {
        return m.imsiRaw();
    }

    @Override
    int nsapi(GtpVserverSettings st) {
        return m.ebi();
    }

    @Override
    GtpSession session(BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        return sessions.byAlias(GtpSession.alias(2, m.teid()));
    }

    @Override
    boolean names(GtpSession s) {
        return s.alias() == GtpSession.alias(2, m.teid());
    }

    @Override
    int recovery() {
        return m.recovery();
    }

    @Override
    int cause() {
        return m.cause();
    }

    @Override
    void writeEcho(ByteBuf out, int sequence, int recovery) {
        GtpEchoEncoder.writeV2(out, sequence, recovery);
    }

    @Override
    GtpCause.Action action(int cause) {
        return GtpCause.classifyV2(cause);
    }

    @Override
    boolean contextGone(int cause) {
        return cause == GtpCause.V2_CONTEXT_NOT_FOUND;
    }

    @Override
    int learnedTeid() {
        return m.fteid(1, fteid) ? fteid.teid() : 0;
    }

    @Override
    int learnedAddress(byte[] into) {
        return m.fteid(1, fteid) ? copyAddress(fteid, into) : 0;
    }

    /** Copies the F-TEID's address (IPv6 when it has one, else IPv4) into {@code into}; its length, 0 if none. */
    private static int copyAddress(GtpV2Fteid f, byte[] into) {
        if (f.hasIpv6() && f.ipv6(into)) {
            return 16;
        }
        if (f.hasIpv4()) {
            int v = f.ipv4();
            into[0] = (byte) (v >>> 24);
            into[1] = (byte) (v >>> 16);
            into[2] = (byte) (v >>> 8);
            into[3] = (byte) v;
            return 4;
        }
        return 0;
    }

    @Override
    void writeHeaderTeid(ByteBuf buf, int teid) {
        int ri = buf.readerIndex();
        if ((buf.getByte(ri) & 0x08) != 0) {
            buf.setInt(ri + 4, teid);
        }
    }

    /** The PGW's control F-TEIDs must carry exactly the family of the virtual address: one address, same length. */
    @Override
    boolean anchorable(int vipLength) {
        for (int i = 0; i < 2; i++) {
            if (pgwControl(i) && (fteid.hasIpv4() == fteid.hasIpv6() || fteid.hasIpv6() != (vipLength == 16))) {
                return false;
            }
        }
        return true;
    }

    @Override
    void anchor(byte[] vip, int teid) {
        for (int i = 0; i < 2; i++) {
            if (pgwControl(i)) {
                int at = vip.length == 16 ? fteid.ipv6Offset() : fteid.ipv4Offset();
                m.buffer().setBytes(at, vip);
                fteid.setTeid(teid);
            }
        }
    }

    @Override
    int sgsnControlAddress(byte[] into) {
        if (!m.fteid(0, fteid) || fteid.interfaceType() != GtpV2Ie.IF_S5S8_SGW_GTPC) {
            return 0;
        }
        if (fteid.hasIpv4() && fteid.hasIpv6()) {
            return -1; // one of the two would keep naming the SGW
        }
        return copyAddress(fteid, into);
    }

    @Override
    int sgsnControlTeid() {
        return m.fteid(0, fteid) ? fteid.teid() : 0;
    }

    @Override
    void anchorSgsn(byte[] vip, int teid) {
        if (m.fteid(0, fteid) && fteid.interfaceType() == GtpV2Ie.IF_S5S8_SGW_GTPC) {
            m.buffer().setBytes(vip.length == 16 ? fteid.ipv6Offset() : fteid.ipv4Offset(), vip);
            fteid.setTeid(teid);
        }
    }

    @Override
    int headerTeid(ByteBuf buf) {
        int ri = buf.readerIndex();
        return (buf.getByte(ri) & 0x08) != 0 ? buf.getInt(ri + 4) : 0;
    }

    @Override
    GtpSession endedByGgsn(GtpSession s, BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        int lbi = m.messageType() == GtpMessageType.V2_DELETE_BEARER_REQUEST ? m.linkedEbi() : -1;
        if (lbi < 0) {
            return null; // dedicated bearers only (EPS Bearer IDs, instance 1): the PDN connection stays
        }
        GtpSession named = lbi != s.nsapi() ? sessions.get(s.imsiRaw(), lbi) : null;
        return named != null ? named : s;
    }

    /** Whether top-level F-TEID {@code instance} is present and the PGW's S5/S8 control plane; leaves it in {@link #fteid}. */
    private boolean pgwControl(int instance) {
        return m.fteid(instance, fteid) && fteid.interfaceType() == GtpV2Ie.IF_S5S8_PGW_GTPC;
    }

    @Override
    void writeSequence(ByteBuf buf, int id, boolean keepCommandBit) {
        int ri = buf.readerIndex();
        int off = ri + ((buf.getByte(ri) & 0x08) != 0 ? 8 : 4);
        int v = keepCommandBit ? (buf.getUnsignedMedium(off) & 0x800000) | (id & 0xFFFF) : id;
        buf.setMedium(off, v);
    }

    @Override
    long responseId(ByteBuf buf) {
        int ri = buf.readerIndex();
        if (GtpMessageType.v2(buf.getByte(ri + 1) & 0xFF).isRequest()) {
            return -1;
        }
        int off = (buf.getByte(ri) & 0x08) != 0 ? 8 : 4;
        return buf.readableBytes() >= off + 4 ? buf.getUnsignedMedium(ri + off) & 0xFFFF : -1;
    }
}
