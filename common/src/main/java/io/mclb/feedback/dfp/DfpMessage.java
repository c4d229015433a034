package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;

import static io.mclb.feedback.dfp.DfpWire.*;

/**
 * Flyweight over one whole DFP message in a {@link ByteBuf} (see {@link DfpWire} for the header):
 * {@link #wrap} checks every length once, after which the accessors read without further checks.
 * Nothing is copied or allocated; one instance per connection, re-wrapped per message.
 *
 * <p>Load TLV (draft-eck-dfp-01 section 6.1; wire.h {@code dfp_tlv_load}):
 * <pre>
 *  +0 type=0x0002 | +2 length = 12 + 8n | +4 port (0 = any) | +6 protocol (0 = any) | +7 flags
 *  +8 number of hosts n | +10 reserved | then n x ( IPv4 address (4) | bind ID (2) | weight (2) )
 * </pre>
 * BindID Table TLV: {@code +4 server IPv4 | +8 port | +10 protocol | +11 reserved | +12 entries n |
 * +14 reserved | n x (bind ID (2) | reserved (2) | client network (4) | client netmask (4))}.
 * Keep-Alive TLV: {@code +4 interval seconds (4)}. Security TLV: {@code +4 algorithm | +8 key id |
 * +12 MD5 digest (16)}.
 */
public final class DfpMessage {
    private ByteBuf buf;
    private int base;
    private int length;

    /**
     * Wraps the readable bytes of {@code b}, which must be exactly one message.
     *
     * @return null when the message is consistent, else why it is not
     */
    public DfpRefusal wrap(ByteBuf b) {
        this.buf = b;
        this.base = b.readerIndex();
        int readable = b.readableBytes();
        if (readable < HEADER_LENGTH) {
            return DfpRefusal.BAD_LENGTH;
        }
        if (b.getUnsignedByte(base) != VERSION) {
            return DfpRefusal.BAD_VERSION;
        }
        long declared = b.getUnsignedInt(base + 4);
        if (declared < HEADER_LENGTH || declared != readable) {
            return declared > MAX_MESSAGE_LENGTH ? DfpRefusal.TOO_LONG : DfpRefusal.BAD_LENGTH;
        }
        this.length = readable;
        for (int at = base + HEADER_LENGTH; at < base + length; ) {
            if (base + length - at < TLV_HEADER_LENGTH) {
                return DfpRefusal.TLV_OVERRUN;
            }
            int len = b.getUnsignedShort(at + 2);
            if (len < TLV_HEADER_LENGTH || at + len > base + length) {
                return DfpRefusal.TLV_OVERRUN;
            }
            if (!consistent(b.getUnsignedShort(at), at, len)) {
                return DfpRefusal.BAD_TLV;
            }
            at += len;
        }
        return null;
    }

    private boolean consistent(int type, int at, int len) {
        return switch (type) {
            case TLV_LOAD -> len >= LOAD_TLV_FIXED
                    && len == LOAD_TLV_FIXED + LOAD_HOST_LENGTH * buf.getUnsignedShort(at + 8);
            case TLV_KEEP_ALIVE -> len == KEEP_ALIVE_TLV_LENGTH;
            case TLV_SECURITY -> len == SECURITY_TLV_LENGTH;
            case TLV_BIND_ID_TABLE -> len >= BIND_TABLE_FIXED
                    && len == BIND_TABLE_FIXED + BIND_ENTRY_LENGTH * buf.getUnsignedShort(at + 12);
            default -> true;
        };
    }

    public ByteBuf buffer() {
        return buf;
    }

    /** Absolute index of the version octet. */
    public int base() {
        return base;
    }

    public int length() {
        return length;
    }

    public int type() {
        return buf.getUnsignedShort(base + 2);
    }

    /** Absolute index of the first TLV, or -1 when the message has none. */
    public int firstTlv() {
        return length > HEADER_LENGTH ? base + HEADER_LENGTH : -1;
    }

    /** Absolute index of the TLV after the one at {@code at}, or -1. */
    public int nextTlv(int at) {
        int next = at + tlvLength(at);
        return next < base + length ? next : -1;
    }

    public int tlvType(int at) {
        return buf.getUnsignedShort(at);
    }

    public int tlvLength(int at) {
        return buf.getUnsignedShort(at + 2);
    }

    /** The first TLV of {@code type}, or -1. */
    public int find(int type) {
        for (int at = firstTlv(); at >= 0; at = nextTlv(at)) {
            if (tlvType(at) == type) {
                return at;
            }
        }
        return -1;
    }

    // Load TLV at `at`
    public int loadPort(int at) {
        return buf.getUnsignedShort(at + 4);
    }

    public int loadProtocol(int at) {
        return buf.getUnsignedByte(at + 6);
    }

    public int loadHosts(int at) {
        return buf.getUnsignedShort(at + 8);
    }

    /** Host {@code i}'s IPv4 address as an int (network order). */
    public int hostAddress(int at, int i) {
        return buf.getInt(at + LOAD_TLV_FIXED + LOAD_HOST_LENGTH * i);
    }

    public int hostBindId(int at, int i) {
        return buf.getUnsignedShort(at + LOAD_TLV_FIXED + LOAD_HOST_LENGTH * i + 4);
    }

    public int hostWeight(int at, int i) {
        return buf.getUnsignedShort(at + LOAD_TLV_FIXED + LOAD_HOST_LENGTH * i + 6);
    }

    // Keep-Alive TLV at `at`
    public long keepAliveSeconds(int at) {
        return buf.getUnsignedInt(at + 4);
    }

    // BindID Table TLV at `at`
    public int bindServer(int at) {
        return buf.getInt(at + 4);
    }

    public int bindPort(int at) {
        return buf.getUnsignedShort(at + 8);
    }

    public int bindProtocol(int at) {
        return buf.getUnsignedByte(at + 10);
    }

    public int bindEntries(int at) {
        return buf.getUnsignedShort(at + 12);
    }

    public int bindEntryId(int at, int i) {
        return buf.getUnsignedShort(at + BIND_TABLE_FIXED + BIND_ENTRY_LENGTH * i);
    }

    public int bindEntryNetwork(int at, int i) {
        return buf.getInt(at + BIND_TABLE_FIXED + BIND_ENTRY_LENGTH * i + 4);
    }

    public int bindEntryMask(int at, int i) {
        return buf.getInt(at + BIND_TABLE_FIXED + BIND_ENTRY_LENGTH * i + 8);
    }
}
