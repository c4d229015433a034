package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.netty.buffer.ByteBuf;

/** GTPv0 (GSM 09.60, port 3386): no TEID; the TID (IMSI + NSAPI) names the PDP context. */
final class GtpV0Dialect extends GtpDialect {
    private final GtpV0Message m;

    GtpV0Dialect() {
        this(new GtpV0Message());
    }

    private GtpV0Dialect(GtpV0Message m) {
        super(m, 0, GtpMessageType.V1_ECHO_REQUEST);
        this.m = m;
    }

    @Override
    boolean isInitialCreate() {
        return m.messageType() == GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST;
    }

    @Override
    boolean isDelete() {
        return m.messageType() == GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST;
    }

    @Override
    boolean unaddressed() {
        return false;
    }

    @Override
    long imsi(GtpVserverSettings st) {
        return m.tidImsi(st.tidLayout());
    }

    @Override
    long imsiRaw(GtpVserverSettings st) {
        return m.tidImsiRaw(st.tidLayout());
    }

    @Override
    int nsapi(GtpVserverSettings st) {
        return m.tidNsapi(st.tidLayout());
    }

    @Override
    GtpSession session(BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        return imsi(st) < 0 ? null : sessions.get(imsiRaw(st), nsapi(st));
    }

    /** Found by IMSI and NSAPI: whatever context the session stands for is the one the TID names. */
    @Override
    boolean names(GtpSession s) {
        return true;
    }

    /** v0's Recovery is not read here: GSM 09.60 peers are rare enough not to need restart tracking. */
    @Override
    int recovery() {
        return -1;
    }

    @Override
    int cause() {
        return m.ies().cause();
    }

    @Override
    void writeEcho(ByteBuf out, int sequence, int recovery) {
        GtpEchoEncoder.writeV0(out, sequence, recovery);
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
        return 0;
    }

    @Override
    int learnedAddress(byte[] into) {
        return m.ies().gsnAddress(0, into);
    }

    /** v0 follow-ups carry the TID, which mclb routes by: nothing to map back. */
    @Override
    void writeHeaderTeid(ByteBuf buf, int teid) {
    }

    @Override
    boolean anchorable(int vipLength) {
        return signallingAddressFits(m.ies(), vipLength);
    }

    /** Only the signalling address: v0's Flow Label Signalling is per GGSN but never routes here (the TID does). */
    @Override
    void anchor(byte[] vip, int teid) {
        anchorSignallingAddress(m.ies(), vip);
    }

    /**
     * GSM 09.60 7.5.1: the first GSN Address of an SGSN's request is its "SGSN Address for
     * signalling". v0 has no TEID: the TID (IMSI + NSAPI) names the context in both directions, and
     * the SGSN's Flow Label Signalling reaches the GGSN unchanged, so only the address is anchored.
     */
    @Override
    int sgsnControlAddress(byte[] into) {
        return m.ies().gsnAddress(0, into);
    }

    @Override
    void anchorSgsn(byte[] vip, int teid) {
        anchorSignallingAddress(m.ies(), vip);
    }

    /** A Delete PDP Context Request from the GGSN names its context by the TID, which found {@code s}. */
    @Override
    GtpSession endedByGgsn(GtpSession s, BindingTable<GtpSession> sessions, GtpVserverSettings st) {
        return isDelete() ? s : null;
    }

    @Override
    void writeSequence(ByteBuf buf, int id, boolean keepCommandBit) {
        buf.setShort(buf.readerIndex() + 4, id);
    }

    @Override
    long responseId(ByteBuf buf) {
        int ri = buf.readerIndex();
        return buf.readableBytes() >= GtpV0Message.HEADER_LENGTH
                && !GtpMessageType.v1(buf.getByte(ri + 1) & 0xFF).isRequest() ? buf.getUnsignedShort(ri + 4) : -1;
    }
}
