package io.mclb.gtp.mip;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a Mobile IPv4 Registration Request or Reply (RFC 5944 sections 3.3 and 3.4),
 * UDP port 434. {@link #wrap} checks the fixed part and walks every extension's length before
 * anything is read; it keeps only offsets, so nothing is allocated per datagram.
 *
 * <pre>
 *  Registration Request (type 1)                 Registration Reply (type 3)
 *  0               1               2               3
 * +---------------+---------------+-------------------------------+
 * |   Type = 1    |S|B|D|M|G|r|T|x|           Lifetime            |   Type = 3 | Code | Lifetime
 * +---------------+---------------+-------------------------------+
 * |                         Home Address                          |   Home Address
 * +---------------------------------------------------------------+
 * |                          Home Agent                           |   Home Agent (the HA that answered)
 * +---------------------------------------------------------------+
 * |                        Care-of Address                        |   Identification (64 bits, at 12)
 * +---------------------------------------------------------------+
 * |                 Identification (64 bits, at 16)               |   Extensions at 20
 * +---------------------------------------------------------------+
 * |  Extensions at 24: type (1) | length (1, data only) | data    |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Extensions 36 (Generalized Authentication, RFC 3012) and 47 (PMIPv4 non-skippable, RFC 5563)
 * are {@code type | subtype | length (2)}, 38 (CVSE, RFC 3115) is {@code type | reserved |
 * length (2)}; every other type has a one-octet length (Wireshark's packet-mip.c reads them the
 * same way). Unknown extension types are kept and forwarded untouched; a known one shorter than
 * its fixed part (an authentication extension without its SPI, an empty NAI) is refused
 * ({@link MipDrops#BAD_EXTENSION}).
 *
 * <p>Replay protection (RFC 5944 section 5.7): a home agent copies the low-order 32 bits of the
 * request's Identification into its reply (the high-order 32 bits carry its own time or nonce),
 * so {@link #idLow()} is what matches a reply to its request. Loop-confined.
 */
public final class MipMessage {
    public static final int TYPE_REQUEST = 1;
    public static final int TYPE_REPLY = 3;
    public static final int REQUEST_FIXED = 24;
    public static final int REPLY_FIXED = 20;
    /** RFC 2794 Mobile Node NAI extension. */
    public static final int EXT_NAI = 131;
    public static final int EXT_MN_HA_AUTH = 32;
    public static final int EXT_MN_FA_AUTH = 33;
    public static final int EXT_FA_HA_AUTH = 34;
    public static final int EXT_GEN_AUTH = 36;
    /** RFC 3115 Normal Vendor/Organization Specific Extension (skippable, one-octet length). */
    public static final int EXT_NVSE = 134;
    public static final int EXT_CVSE = 38;
    public static final int EXT_PMIP_NON_SKIP = 47;
    /** Lifetime 0xFFFF: infinite (RFC 5944 section 3.3). */
    public static final int LIFETIME_INFINITE = 0xFFFF;

    private ByteBuf buf;
    private int start;
    private int type;
    private int naiOffset;
    private int naiLength;
    private DropReason reason;

    /** Reads the message; false (with {@link #reason()}) when it is not a well-formed request or reply. */
    public boolean wrap(ByteBuf b) {
        this.buf = b;
        this.start = b.readerIndex();
        this.naiOffset = -1;
        this.naiLength = 0;
        int len = b.readableBytes();
        if (len < 1) {
            return fail(MipDrops.TRUNCATED);
        }
        type = b.getUnsignedByte(start);
        int fixed;
        if (type == TYPE_REQUEST) {
            fixed = REQUEST_FIXED;
        } else if (type == TYPE_REPLY) {
            fixed = REPLY_FIXED;
        } else {
            return fail(MipDrops.UNKNOWN_TYPE);
        }
        if (len < fixed) {
            return fail(MipDrops.TRUNCATED);
        }
        int end = start + len;
        int p = start + fixed;
        while (p < end) {
            int ext = b.getUnsignedByte(p);
            int header;
            int dataLength;
            if (ext == EXT_GEN_AUTH || ext == EXT_CVSE || ext == EXT_PMIP_NON_SKIP) {
                if (p + 4 > end) {
                    return fail(MipDrops.EXTENSION_OVERRUNS);
                }
                header = 4;
                dataLength = b.getUnsignedShort(p + 2);
            } else {
                if (p + 2 > end) {
                    return fail(MipDrops.EXTENSION_OVERRUNS);
                }
                header = 2;
                dataLength = b.getUnsignedByte(p + 1);
            }
            if (p + header + dataLength > end) {
                return fail(MipDrops.EXTENSION_OVERRUNS);
            }
            if (dataLength < minimumData(ext)) {
                return fail(MipDrops.BAD_EXTENSION);
            }
            if (ext == EXT_NAI && naiOffset < 0) {
                naiOffset = p + header;
                naiLength = dataLength;
            }
            p += header + dataLength;
        }
        reason = null;
        return true;
    }

    /**
     * The fixed part of an extension's data: SPI (4) of the authentication extensions, one octet
     * of NAI, vendor id (4) + vendor type (2) after the CVSE's 2-octet length (already in its
     * header) or after the NVSE's 2 reserved octets. 0 for the other types (unknown ones included).
     */
    private static int minimumData(int ext) {
        return switch (ext) {
            case EXT_MN_HA_AUTH, EXT_MN_FA_AUTH, EXT_FA_HA_AUTH, EXT_GEN_AUTH -> 4;
            case EXT_NAI -> 1;
            case EXT_CVSE -> 6;
            case EXT_NVSE -> 8;
            default -> 0;
        };
    }

    private boolean fail(DropReason r) {
        reason = r;
        return false;
    }

    public DropReason reason() {
        return reason;
    }

    public int type() {
        return type;
    }

    public boolean isRequest() {
        return type == TYPE_REQUEST;
    }

    /** The reply's code (RFC 5944 section 3.4: 0/1 accepted, 64..127 FA denied, 128.. HA denied). */
    public int code() {
        return buf.getUnsignedByte(start + 1);
    }

    /** Requested (request) or granted (reply) lifetime in seconds; 0 = deregistration. */
    public int lifetime() {
        return buf.getUnsignedShort(start + 2);
    }

    public int homeAddress() {
        return buf.getInt(start + 4);
    }

    public int homeAgent() {
        return buf.getInt(start + 8);
    }

    private int idOffset() {
        return start + (type == TYPE_REQUEST ? 16 : 12);
    }

    /** High-order 32 bits of the Identification (timestamp seconds or the sender's nonce). */
    public long idHigh() {
        return buf.getUnsignedInt(idOffset());
    }

    /** Low-order 32 bits of the Identification: the reply copies them from its request. */
    public long idLow() {
        return buf.getUnsignedInt(idOffset() + 4);
    }

    public boolean hasNai() {
        return naiOffset >= 0 && naiLength > 0;
    }

    /** Copies the NAI (RFC 2794, text without terminator) into {@code out}; returns its length (at most 255). */
    public int nai(byte[] out) {
        if (!hasNai()) {
            return 0;
        }
        buf.getBytes(naiOffset, out, 0, naiLength);
        return naiLength;
    }

    /** Reads just the low 32 bits of a reply's Identification, or -1 when it is no reply (engine hook). */
    public static long replyId(ByteBuf b) {
        int r = b.readerIndex();
        if (b.readableBytes() < REPLY_FIXED || b.getUnsignedByte(r) != TYPE_REPLY) {
            return -1;
        }
        return b.getUnsignedInt(r + 16);
    }
}
