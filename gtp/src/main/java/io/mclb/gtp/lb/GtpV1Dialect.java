package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v1.GtpV1Message;
import io.netty.buffer.ByteBuf;

/** GTPv1-C (29.060, port 2123): requests follow the GGSN's control TEID learnt from the create answer. */
final class GtpV1Dialect extends GtpDialect {
    private final GtpV1Message m;

    GtpV1Dialect() {
        this(new GtpV1Message());
    }

    private GtpV1Dialect(GtpV1Message m) {
        super(m, 1, GtpMessageType.V1_ECHO_REQUEST);
        this.m = m;
    }

    /** The wrapped message, for the notifications (a v1-only, mclb-defined message). */
    GtpV1Message message() {
        return m;
    }

    @Override
    boolean isInitialCreate() {
        return m.messageType() == GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST && m.teid() == 0;
    }

    @Override
    boolean isSecondaryCreate() {
        return m.messageType() == GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST && m.teid() != 0;
    }

    @Override
    boolean isDelete() {
        return m.messageType() == GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST;
    }

    @Override
    boolean unaddressed() {
        return m.teid() == 0;
    }

    @Override
    long imsi(GtpVserverSettings st) {
        return m.ies().imsi();
    }

    @Override
    long imsiRaw(GtpVserverSettings st) {
        return m.ies().imsiRaw();
    }

    @Override
    int nsapi(GtpVserverSettings st) {
        return m.ies().nsapi();
    }

    @Override
    GtpSession session(BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        return sessions.byAlias(GtpSession.alias(1, m.teid()));
    }

    @Override
    boolean names(GtpSession s) {
        return s.alias() == GtpSession.alias(1, m.teid());
    }

    @Override
    int cause() {
        return m.ies().cause();
    }

    @Override
    int recovery() {
        return m.ies().recovery();
    }

    @Override
    void writeEcho(ByteBuf out, int sequence, int recovery) {
        GtpEchoEncoder.writeV1(out, sequence, recovery);
    }

    @Override
    GtpCause.Action action(int cause) {
        return GtpCause.classifyV1(cause);
    }

    @Override
    boolean contextGone(int cause) {
        return cause == GtpCause.V1_NON_EXISTENT;
    }

    @Override
    int learnedTeid() {
        return m.ies().hasTeidControl() ? m.ies().teidControl(false) : 0;
    }

    @Override
    int learnedAddress(byte[] into) {
        return m.ies().gsnAddress(0, into);
    }

    @Override
    void writeHeaderTeid(ByteBuf buf, int teid) {
        buf.setInt(buf.readerIndex() + 4, teid);
    }

    @Override
    boolean anchorable(int vipLength) {
        return signallingAddressFits(m.ies(), vipLength);
    }

    @Override
    void anchor(byte[] vip, int teid) {
        anchorSignallingAddress(m.ies(), vip);
        int tc = m.ies().teidControlOffset();
        if (tc >= 0) {
            m.buffer().setInt(tc, teid);
        }
    }

    @Override
    int sgsnControlAddress(byte[] into) {
        return m.ies().hasTeidControl() ? m.ies().gsnAddress(0, into) : 0;
    }

    @Override
    int sgsnControlTeid() {
        return m.ies().teidControl(false);
    }

    @Override
    void anchorSgsn(byte[] vip, int teid) {
        anchor(vip, teid); // the same two IEs the create answer carries for the GGSN: first GSN Address, TEID-C
    }

    @Override
    int headerTeid(ByteBuf buf) {
        return buf.getInt(buf.readerIndex() + 4);
    }

    @Override
    GtpSession endedByGgsn(GtpSession s, BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        if (!isDelete()) {
            return null;
        }
        int nsapi = m.ies().nsapi();
        GtpSession named = nsapi >= 0 && nsapi != s.nsapi() ? sessions.get(s.imsiRaw(), nsapi) : null;
        return named != null ? named : s;
    }

    @Override
    void writeSequence(ByteBuf buf, int id, boolean keepCommandBit) {
        buf.setShort(buf.readerIndex() + 8, id);
    }

    @Override
    long responseId(ByteBuf buf) {
        int ri = buf.readerIndex();
        int flags = buf.getByte(ri) & 0xFF;
        return buf.readableBytes() >= 12 && (flags & 0x02) != 0
                && !GtpMessageType.v1(buf.getByte(ri + 1) & 0xFF).isRequest() ? buf.getUnsignedShort(ri + 8) : -1;
    }
}
