package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpEchoEncoder;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/** GTPv0 (GSM 09.60, port 3386): no TEID; the TID (IMSI + NSAPI) names the PDP context. */
final class GtpV0Dialect extends GtpDialect {
    private final GtpV0Message m = new GtpV0Message();

    @Override
    int version() {
        return 0;
    }

    @Override
    boolean wrap(ByteBuf buf) {
        return m.wrap(buf);
    }

    @Override
    DropReason reason() {
        return m.reason();
    }

    @Override
    int messageType() {
        return m.messageType();
    }

    @Override
    int sequence() {
        return m.sequence();
    }

    @Override
    boolean isEchoRequest() {
        return m.messageType() == GtpMessageType.V1_ECHO_REQUEST;
    }

    @Override
    boolean isResponse() {
        return GtpMessageType.v1(m.messageType()).isResponse();
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

    @Override
    ByteBuf echoAnswer(int recovery) {
        ByteBuf out = m.buffer().alloc().buffer(GtpEchoEncoder.MAX_LENGTH);
        GtpEchoEncoder.writeV0(out, m.sequence(), recovery);
        return out;
    }

    @Override
    int cause() {
        return m.ies().cause();
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
