package io.mclb.gtp.v0;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v1.GtpV1IeCursor;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a GTPv0 (GSM 09.60 section 6; gtp.md section 2) message at a buffer's reader index.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |Ver=0|P|1 1 1|S| Message type  | Length (octets after the 20)  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |       Sequence number         |          Flow label           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | SNDCP N-PDU LLC |            Spare 0xFF 0xFF 0xFF             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     TID (8 octets: IMSI + NSAPI)              |
 *  |                                                               |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | IEs (v1 TV/TLV format; 16/17 are 2-octet flow labels) ...     |
 * </pre>
 * Normal flags 0x1E. v0 has no TEID and no IMSI IE in the Create request: the subscriber is in the
 * TID, decoded per {@link TidLayout}. Validation order and the trailing-octets rule are those of
 * {@code GtpV1Message}; T-PDU (255) payload is not walked. PT = 0 (GTP') is refused.
 * Accessors are defined only after {@code wrap} returned true; reusable, allocation-free.
 */
public final class GtpV0Message {
    public static final int HEADER_LENGTH = 20;
    /** Flags octet: version 0, PT 1, spare 111, SNN 0 (osmo-ggsn's value). */
    public static final int FLAGS = 0x1E;

    private final GtpV1IeIndex ies = new GtpV1IeIndex();
    private ByteBuf buf;
    private int base;
    private int end;
    private int datagramEnd;
    private DropReason reason;

    public boolean wrap(ByteBuf buf) {
        return wrap(buf, buf.readerIndex(), buf.readableBytes());
    }

    /** Wraps {@code length} octets at absolute {@code offset}; false with {@link #reason()} when malformed. */
    public boolean wrap(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.base = offset;
        this.datagramEnd = offset + length;
        this.reason = null;
        if (length < 1) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        int flags = buf.getByte(offset) & 0xFF;
        if ((flags >>> 5) != 0) {
            return fail(GtpDrops.UNSUPPORTED_VERSION);
        }
        if (length < HEADER_LENGTH) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        if ((flags & 0x10) == 0) {
            return fail(GtpDrops.GTP_PRIME);
        }
        end = offset + HEADER_LENGTH + buf.getUnsignedShort(offset + 2);
        if (end > datagramEnd) {
            return fail(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        int ies0 = offset + HEADER_LENGTH;
        boolean userData = messageType() == GtpMessageType.V1_T_PDU;
        DropReason ieError = ies.index(buf, ies0, userData ? ies0 : end, true);
        return ieError == null || fail(ieError);
    }

    private boolean fail(DropReason r) {
        reason = r;
        return false;
    }

    /** Why the last {@link #wrap} returned false; null after a successful wrap. */
    public DropReason reason() {
        return reason;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int flags() {
        return buf.getByte(base) & 0xFF;
    }

    /** Always 0 after a successful wrap. */
    public int version() {
        return flags() >>> 5;
    }

    /** Protocol type: 1 = GTP (GTP' is refused by wrap). */
    public int protocolType() {
        return (flags() >>> 4) & 1;
    }

    public int messageType() {
        return buf.getByte(base + 1) & 0xFF;
    }

    public GtpMessageType type() {
        return GtpMessageType.v1(messageType());
    }

    /** Header length field: octets after the 20-octet header. */
    public int length() {
        return buf.getUnsignedShort(base + 2);
    }

    public int messageLength() {
        return end - base;
    }

    public int trailingBytes() {
        return datagramEnd - end;
    }

    /** 16-bit sequence number at offset 4 (always present in v0). */
    public int sequence() {
        return buf.getUnsignedShort(base + 4);
    }

    public void setSequence(int sequence) {
        buf.setShort(base + 4, sequence);
    }

    /** Flow label at offset 6: 0 in path management and the first Create request, else the receiver's label. */
    public int flowLabel() {
        return buf.getUnsignedShort(base + 6);
    }

    public void setFlowLabel(int flowLabel) {
        buf.setShort(base + 6, flowLabel);
    }

    /** SNDCP N-PDU LLC number at offset 8 (0xFF when unused). */
    public int sndcpNpduNumber() {
        return buf.getByte(base + 8) & 0xFF;
    }

    /** The 8 TID octets at offset 12 as a big-endian long (the exact per-PDP key, layout-independent). */
    public long tid() {
        return buf.getLong(base + 12);
    }

    public void setTid(long tid) {
        buf.setLong(base + 12, tid);
    }

    /** NSAPI from the TID (0..15) under {@code layout}. */
    public int tidNsapi(TidLayout layout) {
        return (int) (layout.imsiOrder(tid()) >>> 4) & 0x0F;
    }

    /**
     * The IMSI of the TID in the v1 IMSI IE form (8 TBCD octets, NSAPI nibble replaced by the F
     * filler): equal to {@code GtpV1IeIndex#imsiRaw()} of the same subscriber.
     */
    public long tidImsiRaw(TidLayout layout) {
        return layout.imsiOrder(tid()) | 0xF0L;
    }

    /** Packed IMSI digits of the TID ({@link Tbcd}), or {@link Tbcd#NOT_BCD}. */
    public long tidImsi(TidLayout layout) {
        return Tbcd.decodeRaw(tidImsiRaw(layout), 8);
    }

    /** Absolute offset of the first IE (base + 20). */
    public int iesOffset() {
        return base + HEADER_LENGTH;
    }

    public int endOffset() {
        return end;
    }

    /**
     * IEs indexed by wrap. In v0, {@code teidControl(true)} is Flow Label Signalling and
     * {@code teidDataI(true)} Flow Label Data I; GSN Address 0/1 are signalling/user (gtp.md section 10).
     */
    public GtpV1IeIndex ies() {
        return ies;
    }

    /** Resets {@code cursor} over this message's IEs (v0 TV lengths). */
    public GtpV1IeCursor ieCursor(GtpV1IeCursor cursor) {
        int p = iesOffset();
        return cursor.reset(buf, p, messageType() == GtpMessageType.V1_T_PDU ? p : end, true);
    }
}
