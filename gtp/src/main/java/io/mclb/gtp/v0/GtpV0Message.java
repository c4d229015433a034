package io.mclb.gtp.v0;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpHeader;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v1.GtpV1IeCursor;
import io.mclb.gtp.v1.GtpV1IeIndex;
import io.mclb.net.DropReason;

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
 * TID, decoded per {@link TidLayout}. The header checks, their order and the trailing-octets rule
 * are {@link GtpHeader}'s (PT = 0, GTP', is refused); then every IE length is checked, except for
 * T-PDU (255), whose payload is user data.
 * Accessors are defined only after {@code wrap} returned true; reusable, allocation-free.
 */
public final class GtpV0Message extends GtpHeader {
    public static final int HEADER_LENGTH = 20;
    /** Flags octet: version 0, PT 1, spare 111, SNN 0 (osmo-ggsn's value). */
    public static final int FLAGS = 0x1E;

    private final GtpV1IeIndex ies = new GtpV1IeIndex();

    public GtpV0Message() {
        super(Layout.V0);
    }

    @Override
    protected DropReason wrapBody() {
        DropReason bad = ies.index(buffer(), iesOffset(), userDataEnd(), true);
        if (bad == null) {
            violate(ies.violation());
            if (trailingBytes() > 0) {
                violate(GtpDrops.LENGTH_MISMATCH);
            }
        }
        return bad;
    }

    /** A T-PDU's IEs end where they start: the payload after the header is user data, not IEs. */
    private int userDataEnd() {
        return messageType() == GtpMessageType.V1_T_PDU ? iesOffset() : endOffset();
    }

    /** Protocol type: 1 = GTP (GTP' is refused by wrap). */
    public int protocolType() {
        return (flags() >>> 4) & 1;
    }

    /** Patches the 16-bit sequence number at offset 4 (always present in v0). */
    public void setSequence(int sequence) {
        writeSequence(sequence);
    }

    /** Flow label at offset 6: 0 in path management and the first Create request, else the receiver's label. */
    public int flowLabel() {
        return buffer().getUnsignedShort(baseOffset() + 6);
    }

    public void setFlowLabel(int flowLabel) {
        buffer().setShort(baseOffset() + 6, flowLabel);
    }

    /** SNDCP N-PDU LLC number at offset 8 (0xFF when unused). */
    public int sndcpNpduNumber() {
        return buffer().getByte(baseOffset() + 8) & 0xFF;
    }

    /** The 8 TID octets at offset 12 as a big-endian long (the exact per-PDP key, layout-independent). */
    public long tid() {
        return buffer().getLong(baseOffset() + 12);
    }

    public void setTid(long tid) {
        buffer().setLong(baseOffset() + 12, tid);
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

    /**
     * IEs indexed by wrap. In v0, {@code teidControl(true)} is Flow Label Signalling and
     * {@code teidDataI(true)} Flow Label Data I; GSN Address 0/1 are signalling/user (gtp.md section 10).
     */
    public GtpV1IeIndex ies() {
        return ies;
    }

    /** Resets {@code cursor} over this message's IEs (v0 TV lengths). */
    public GtpV1IeCursor ieCursor(GtpV1IeCursor cursor) {
        return cursor.reset(buffer(), iesOffset(), userDataEnd(), true);
    }
}
