package io.mclb.gtp.v1;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpHeader;
import io.mclb.gtp.GtpMessageType;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a GTPv1 (29.060 section 6; gtp.md section 3) message at a buffer's reader index.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |Ver=1|P|0|E|S|N| Message type  |  Length (octets after the 8)  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Tunnel Endpoint Identifier                    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Sequence number (if E|S|PN)   | N-PDU number  | Next ext type |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | extension headers (len*4 octets, last octet = next type) ...  |
 *  | IEs (TV / TLV, see GtpV1IeCursor) ...                         |
 * </pre>
 * {@link #wrap} validates, in order: header octets present, version 1, PT = 1 (PT = 0 is GTP'),
 * length field within the datagram (those are {@link GtpHeader}'s), then the optional block inside
 * the length, the extension-header chain, then every IE length (except for T-PDU 255 and End
 * Marker 254, whose payload is user data). Octets after {@code 8 + length} are tolerated and not
 * parsed ({@link #trailingBytes()}); the service may count them.
 *
 * <p>Accessors are defined only after {@code wrap} returned true. Reusable: one instance per event
 * loop, re-wrapped per datagram; nothing is allocated. Patching writes into the wrapped buffer.
 */
public final class GtpV1Message extends GtpHeader {
    /** Flags octet: version 1, PT 1, S 1 (osmo-ggsn's value for every signalling message). */
    public static final int FLAGS_SIGNALLING = 0x32;
    public static final int MANDATORY_HEADER_LENGTH = 8;

    private static final int EXTENSION_FLAG = 0x04;
    /** E, S or PN: any of them puts the 4-octet sequence / N-PDU / next-type block after the TEID. */
    private static final int OPTIONAL_BLOCK_FLAGS = 0x07;
    private static final int OPTIONAL_BLOCK_LENGTH = 4;

    private final GtpV1IeIndex ies = new GtpV1IeIndex();

    public GtpV1Message() {
        super(Layout.V1);
    }

    @Override
    protected DropReason wrapBody() {
        ByteBuf buf = buffer();
        int flags = flags();
        int end = endOffset();
        int p = iesOffset();
        if ((flags & OPTIONAL_BLOCK_FLAGS) != 0) {
            if (length() < OPTIONAL_BLOCK_LENGTH) {
                return GtpDrops.LENGTH_TOO_SHORT;
            }
            p += OPTIONAL_BLOCK_LENGTH;
            if ((flags & EXTENSION_FLAG) != 0) {
                int nextType = buf.getByte(baseOffset() + 11) & 0xFF;
                while (nextType != 0) {
                    if (p >= end) {
                        return GtpDrops.BAD_EXTENSION_HEADER;
                    }
                    int extLen = (buf.getByte(p) & 0xFF) * 4;
                    if (extLen == 0 || p + extLen > end) {
                        return GtpDrops.BAD_EXTENSION_HEADER;
                    }
                    if (extLen != 4 * fixedExtensionUnits(nextType, extLen / 4)) {
                        violate(GtpDrops.BAD_EXTENSION_HEADER);
                    }
                    nextType = buf.getByte(p + extLen - 1) & 0xFF;
                    p += extLen;
                }
            }
        }
        setIesOffset(p);
        DropReason bad = ies.index(buf, p, userDataEnd(), false);
        if (bad == null) {
            violate(ies.violation());
            if (trailingBytes() > 0) {
                violate(GtpDrops.LENGTH_MISMATCH);
            }
        }
        return bad;
    }

    /**
     * The length (in 4-octet units) 29.060 section 6.1 fixes for an extension header type, or
     * {@code units} for the variable ones and types this decoder does not know: 0x01 MBMS
     * support indication, 0x02 MS Info Change Reporting support indication, 0x20 Service Class
     * Indicator, 0x40 UDP Port, 0xC0 PDCP PDU Number: 1; 0x82 Long PDCP PDU Number: 2.
     */
    private static int fixedExtensionUnits(int type, int units) {
        return switch (type) {
            case 0x01, 0x02, 0x20, 0x40, 0xC0 -> 1;
            case 0x82 -> 2;
            default -> units;
        };
    }

    /** T-PDU and End Marker IEs end where they start: what follows the header is user data, not IEs. */
    private int userDataEnd() {
        int type = messageType();
        boolean userData = type == GtpMessageType.V1_T_PDU || type == GtpMessageType.V1_END_MARKER;
        return userData ? iesOffset() : endOffset();
    }

    /** Protocol type: 1 = GTP (always, GTP' is refused by wrap). */
    public int protocolType() {
        return (flags() >>> 4) & 1;
    }

    public int teid() {
        return buffer().getInt(baseOffset() + 4);
    }

    public void setTeid(int teid) {
        buffer().setInt(baseOffset() + 4, teid);
    }

    /**
     * Patches the sequence number in place; false (nothing written) when S = 0 because the
     * optional block may be absent and a 12-octet header cannot be grown in place.
     */
    public boolean setSequence(int sequence) {
        return writeSequence(sequence);
    }

    /** The IEs indexed by wrap: IMSI, Cause, Recovery, TEIDs, NSAPI, APN, GSN Addresses, EUA. */
    public GtpV1IeIndex ies() {
        return ies;
    }

    /** Resets {@code cursor} over this message's IEs, for IEs the index does not keep. */
    public GtpV1IeCursor ieCursor(GtpV1IeCursor cursor) {
        return cursor.reset(buffer(), iesOffset(), userDataEnd(), false);
    }
}
