package io.mclb.gtp.v1;

import io.mclb.gtp.GtpDrops;
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
 * length field within the datagram, the optional block inside the length, the extension-header
 * chain, then every IE length (except for T-PDU 255 and End Marker 254, whose payload is user
 * data). Octets after {@code 8 + length} are tolerated and not parsed ({@link #trailingBytes()}):
 * 29.060 gives no use for them and forwarding them unchanged is harmless; the service may count them.
 *
 * <p>Accessors are defined only after {@code wrap} returned true. Reusable: one instance per event
 * loop, re-wrapped per datagram; nothing is allocated. Patching writes into the wrapped buffer.
 */
public final class GtpV1Message {
    /** Flags octet: version 1, PT 1, S 1 (osmo-ggsn's value for every signalling message). */
    public static final int FLAGS_SIGNALLING = 0x32;
    public static final int MANDATORY_HEADER_LENGTH = 8;

    private final GtpV1IeIndex ies = new GtpV1IeIndex();
    private ByteBuf buf;
    private int base;
    private int end;
    private int iesOffset;
    private int datagramEnd;
    private DropReason reason;

    /** Wraps the readable bytes of {@code buf}; false with {@link #reason()} when the message is malformed. */
    public boolean wrap(ByteBuf buf) {
        return wrap(buf, buf.readerIndex(), buf.readableBytes());
    }

    /** Wraps {@code length} octets at absolute {@code offset} (e.g. a v1 message inside another buffer). */
    public boolean wrap(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.base = offset;
        this.datagramEnd = offset + length;
        this.reason = null;
        if (length < 1) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        int flags = buf.getByte(offset) & 0xFF;
        if ((flags >>> 5) != 1) {
            return fail(GtpDrops.UNSUPPORTED_VERSION);
        }
        if (length < MANDATORY_HEADER_LENGTH) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        if ((flags & 0x10) == 0) {
            return fail(GtpDrops.GTP_PRIME);
        }
        int len = buf.getUnsignedShort(offset + 2);
        end = offset + MANDATORY_HEADER_LENGTH + len;
        if (end > datagramEnd) {
            return fail(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        int p = offset + MANDATORY_HEADER_LENGTH;
        if ((flags & 0x07) != 0) {
            if (len < 4) {
                return fail(GtpDrops.LENGTH_TOO_SHORT);
            }
            p += 4;
            if ((flags & 0x04) != 0) {
                int nextType = buf.getByte(offset + 11) & 0xFF;
                while (nextType != 0) {
                    if (p >= end) {
                        return fail(GtpDrops.BAD_EXTENSION_HEADER);
                    }
                    int extLen = (buf.getByte(p) & 0xFF) * 4;
                    if (extLen == 0 || p + extLen > end) {
                        return fail(GtpDrops.BAD_EXTENSION_HEADER);
                    }
                    nextType = buf.getByte(p + extLen - 1) & 0xFF;
                    p += extLen;
                }
            }
        }
        iesOffset = p;
        int type = buf.getByte(offset + 1) & 0xFF;
        boolean userData = type == GtpMessageType.V1_T_PDU || type == GtpMessageType.V1_END_MARKER;
        DropReason ieError = ies.index(buf, p, userData ? p : end, false);
        if (ieError != null) {
            return fail(ieError);
        }
        return true;
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

    /** Flags octet (version, PT, E, S, PN). */
    public int flags() {
        return buf.getByte(base) & 0xFF;
    }

    /** Always 1 after a successful wrap. */
    public int version() {
        return flags() >>> 5;
    }

    /** Protocol type: 1 = GTP (always, GTP' is refused by wrap). */
    public int protocolType() {
        return (flags() >>> 4) & 1;
    }

    public int messageType() {
        return buf.getByte(base + 1) & 0xFF;
    }

    /** The open-enum view of {@link #messageType()}. */
    public GtpMessageType type() {
        return GtpMessageType.v1(messageType());
    }

    /** Header length field: octets after the first 8. */
    public int length() {
        return buf.getUnsignedShort(base + 2);
    }

    /** Total message octets, {@code 8 + length()}. */
    public int messageLength() {
        return end - base;
    }

    /** Octets in the datagram after the message (tolerated, not parsed). */
    public int trailingBytes() {
        return datagramEnd - end;
    }

    public int teid() {
        return buf.getInt(base + 4);
    }

    public void setTeid(int teid) {
        buf.setInt(base + 4, teid);
    }

    /** Whether the S flag is set (sequence number meaningful). */
    public boolean hasSequence() {
        return (flags() & 0x02) != 0;
    }

    /** 16-bit sequence number, or -1 when S = 0. */
    public int sequence() {
        return hasSequence() ? buf.getUnsignedShort(base + 8) : -1;
    }

    /**
     * Patches the sequence number in place; false (nothing written) when S = 0 because the
     * optional block may be absent and a 12-octet header cannot be grown in place.
     */
    public boolean setSequence(int sequence) {
        if (!hasSequence()) {
            return false;
        }
        buf.setShort(base + 8, sequence);
        return true;
    }

    /** Absolute offset of the first IE (after the optional block and extension headers). */
    public int iesOffset() {
        return iesOffset;
    }

    /** Absolute offset one past the message ({@code 8 + length}). */
    public int endOffset() {
        return end;
    }

    /** The IEs indexed by wrap: IMSI, Cause, Recovery, TEIDs, NSAPI, APN, GSN Addresses, EUA. */
    public GtpV1IeIndex ies() {
        return ies;
    }

    /** Resets {@code cursor} over this message's IEs, for IEs the index does not keep. */
    public GtpV1IeCursor ieCursor(GtpV1IeCursor cursor) {
        int type = messageType();
        boolean userData = type == GtpMessageType.V1_T_PDU || type == GtpMessageType.V1_END_MARKER;
        return cursor.reset(buf, iesOffset, userData ? iesOffset : end, false);
    }
}
