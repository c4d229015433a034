package io.mclb.radius.codec;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over one RADIUS datagram in a {@link ByteBuf}, starting at its reader index
 * (RFC 2865 section 3 and 5, RFC 2866 section 3; checked against /work/shared/reference/radius.md 2).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Code      |  Identifier   |            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Authenticator (16 octets)                    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Type         |  Length (>=2) |  Value (Length-2 octets) ...  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * Vendor-Specific (26) value:  Vendor-Id (4) | vtype (1) | vlen (1, >=2) | vvalue ...
 * </pre>
 *
 * Contract: {@link #wrap} checks the whole frame once (Length 20..4096 and not beyond the datagram;
 * every attribute length &gt;= 2 and inside Length; Message-Authenticator, if any, 18 octets and
 * single; the value lengths of {@link RadiusAttributeRules}) and returns a reason instead of
 * throwing. After a {@code null} result every accessor stays inside the frame; after a non-null result accessors are undefined. Octets beyond Length are
 * padding (RFC 2865 section 3: "treated as padding and ignored"): {@link #trimPadding} drops them
 * before forwarding. "Index" below means an absolute index in the buffer. Nothing is allocated;
 * one instance is reused per event loop (not thread-safe).
 */
public final class RadiusPacket {
    public static final int HEADER_LENGTH = 20;
    public static final int MAX_LENGTH = 4096;
    public static final int AUTHENTICATOR_OFFSET = 4;
    public static final int AUTHENTICATOR_LENGTH = 16;

    private ByteBuf buf;
    private int offset;
    private int length;
    private int messageAuthenticatorIndex = -1;
    /**
     * Bit {@code t} set when {@link #wrap} saw an attribute of type {@code t} (types 0..127; 128..255
     * are always searched): the searches for what a packet does not carry (Tunnel-Password,
     * Vendor-Specific, EAP-Message in most) return at once instead of walking the attributes again.
     */
    private long typesBelow64;
    private long types64To127;

    /** Validates the frame at {@code buf.readerIndex()}; {@code null} when it is well formed. */
    public DropReason wrap(ByteBuf buf) {
        this.buf = buf;
        this.offset = buf.readerIndex();
        this.length = 0;
        this.messageAuthenticatorIndex = -1;
        this.typesBelow64 = 0;
        this.types64To127 = 0;
        int datagram = buf.readableBytes();
        if (datagram < HEADER_LENGTH) {
            return RadiusDrops.SHORT_PACKET;
        }
        int len = buf.getUnsignedShort(offset + 2);
        if (len < HEADER_LENGTH || len > MAX_LENGTH) {
            return RadiusDrops.BAD_LENGTH;
        }
        if (len > datagram) {
            return RadiusDrops.SHORT_PACKET;
        }
        int end = offset + len;
        int ma = -1;
        long below64 = 0;
        long from64 = 0;
        for (int i = offset + HEADER_LENGTH; i < end; ) {
            if (end - i < 2) {
                return RadiusDrops.ATTRIBUTE_OVERRUN;
            }
            int alen = buf.getUnsignedByte(i + 1);
            if (alen < 2) {
                return RadiusDrops.BAD_ATTRIBUTE_LENGTH;
            }
            if (alen > end - i) {
                return RadiusDrops.ATTRIBUTE_OVERRUN;
            }
            int type = buf.getUnsignedByte(i);
            if (type < 64) {
                below64 |= 1L << type;
            } else if (type < 128) {
                from64 |= 1L << (type - 64);
            }
            if (type == RadiusAttributes.MESSAGE_AUTHENTICATOR) {
                if (alen != 18 || ma >= 0) {
                    return RadiusDrops.BAD_MESSAGE_AUTHENTICATOR_ATTRIBUTE;
                }
                ma = i + 2;
            } else {
                DropReason bad = RadiusAttributeRules.check(buf, type, i + 2, alen - 2);
                if (bad != null) {
                    return bad;
                }
            }
            i += alen;
        }
        this.length = len;
        this.messageAuthenticatorIndex = ma;
        this.typesBelow64 = below64;
        this.types64To127 = from64;
        return null;
    }

    /** False when the packet (as {@link #wrap} saw it) has no attribute of {@code type}; true when it may have one. */
    public boolean has(int type) {
        if (type < 64) {
            return (typesBelow64 >>> type & 1) != 0;
        }
        return type >= 128 || (types64To127 >>> (type - 64) & 1) != 0;
    }

    public ByteBuf buffer() {
        return buf;
    }

    /** Index of the Code octet. */
    public int offset() {
        return offset;
    }

    /** The Length field (validated), excluding any padding. */
    public int length() {
        return length;
    }

    /** Index just past the last attribute. */
    public int end() {
        return offset + length;
    }

    public int code() {
        return buf.getUnsignedByte(offset);
    }

    public int identifier() {
        return buf.getUnsignedByte(offset + 1);
    }

    public void setIdentifier(int identifier) {
        buf.setByte(offset + 1, identifier);
    }

    /** Copies the 16-octet authenticator into {@code dst[0..16)}. */
    public void authenticator(byte[] dst) {
        buf.getBytes(offset + AUTHENTICATOR_OFFSET, dst, 0, AUTHENTICATOR_LENGTH);
    }

    public void setAuthenticator(byte[] src) {
        buf.setBytes(offset + AUTHENTICATOR_OFFSET, src, 0, AUTHENTICATOR_LENGTH);
    }

    /** Index of the authenticator field. */
    public int authenticatorIndex() {
        return offset + AUTHENTICATOR_OFFSET;
    }

    /** Sets the writer index to the end of Length so padding octets are not forwarded. */
    public void trimPadding() {
        buf.writerIndex(offset + length);
    }

    /** Index of the first attribute of {@code type}, or -1. */
    public int findAttribute(int type) {
        return nextAttribute(type, offset + HEADER_LENGTH);
    }

    /** Index of the first attribute of {@code type} at or after attribute index {@code from}, or -1. */
    public int nextAttribute(int type, int from) {
        if (!has(type)) {
            return -1;
        }
        int end = offset + length;
        for (int i = from; i < end; i += buf.getUnsignedByte(i + 1)) {
            if (buf.getUnsignedByte(i) == type) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the attribute following {@code attributeIndex}, or -1 at the end. */
    public int nextAttributeIndex(int attributeIndex) {
        int next = attributeIndex + buf.getUnsignedByte(attributeIndex + 1);
        return next < offset + length ? next : -1;
    }

    /** First attribute index, or -1 when there are none. */
    public int firstAttributeIndex() {
        return length > HEADER_LENGTH ? offset + HEADER_LENGTH : -1;
    }

    public int attributeType(int attributeIndex) {
        return buf.getUnsignedByte(attributeIndex);
    }

    /** Index of the value of the attribute (or VSA sub-attribute) at {@code index}. */
    public static int valueIndex(int index) {
        return index + 2;
    }

    /** Value length of the attribute (or standard-format VSA sub-attribute) at {@code index}. */
    public int valueLength(int index) {
        return buf.getUnsignedByte(index + 1) - 2;
    }

    /**
     * Index of the sub-attribute header ({@code vtype}) of the first Vendor-Specific sub-attribute
     * with this vendor id and vendor type, or -1. Assumes the RFC 2865 5.26 recommended layout
     * (type, length) used by Cisco, Microsoft, 3GPP and 3GPP2; a VSA whose sub-attributes do not fit
     * that layout is skipped, never read past. WiMAX (24757) adds a continuation octet: its value
     * starts one octet later than {@link #valueIndex}.
     */
    public int findVendorAttribute(long vendorId, int vendorType) {
        int end = offset + length;
        for (int a = findAttribute(RadiusAttributes.VENDOR_SPECIFIC); a >= 0;
             a = nextAttribute(RadiusAttributes.VENDOR_SPECIFIC, a + buf.getUnsignedByte(a + 1))) {
            int alen = buf.getUnsignedByte(a + 1);
            if (alen < 6 || buf.getUnsignedInt(a + 2) != vendorId) {
                continue;
            }
            int vend = a + alen;
            for (int s = a + 6; s + 2 <= vend; ) {
                int slen = buf.getUnsignedByte(s + 1);
                if (slen < 2 || s + slen > vend) {
                    break;
                }
                if (buf.getUnsignedByte(s) == vendorType) {
                    return s;
                }
                s += slen;
            }
            if (a + alen >= end) {
                break;
            }
        }
        return -1;
    }

    /** Framed-IP-Address (8) as a big-endian int, or 0 (not a subscriber address) when absent or not 4 octets. */
    public int framedIpAddress() {
        int a = findAttribute(RadiusAttributes.FRAMED_IP_ADDRESS);
        return a >= 0 && valueLength(a) == 4 ? buf.getInt(a + 2) : 0;
    }

    /** Acct-Status-Type (40) value (1 Start, 2 Stop, 3 Interim-Update, 7 Accounting-On, 8 Off), or -1. */
    public int acctStatusType() {
        int a = findAttribute(RadiusAttributes.ACCT_STATUS_TYPE);
        return a >= 0 && valueLength(a) == 4 ? buf.getInt(a + 2) : -1;
    }

    /** Calling-Station-Id (31) attribute index, or -1: value at {@link #valueIndex}, {@link #valueLength} octets. */
    public int callingStationId() {
        return findAttribute(RadiusAttributes.CALLING_STATION_ID);
    }

    /** User-Name (1) attribute index, or -1: value at {@link #valueIndex}, {@link #valueLength} octets. */
    public int userName() {
        return findAttribute(RadiusAttributes.USER_NAME);
    }

    /** 3GPP-IMSI (10415/1) sub-attribute index, or -1. */
    public int tgppImsi() {
        return findVendorAttribute(RadiusAttributes.VENDOR_3GPP, RadiusAttributes.TGPP_IMSI);
    }

    /** Index of the 16-octet Message-Authenticator value (found by {@link #wrap}), or -1. */
    public int messageAuthenticatorIndex() {
        return messageAuthenticatorIndex;
    }

    public boolean hasMessageAuthenticator() {
        return messageAuthenticatorIndex >= 0;
    }
}
