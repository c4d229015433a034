package io.mclb.gtp.asn;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a WiMAX ASN control message on R6 (NWG stage 3; laid out as Wireshark's
 * {@code wimaxasncp} dissector decodes it), UDP port 2231. {@link #wrap} checks the header and
 * walks the top-level TLVs within the length before anything is read; nothing is allocated.
 *
 * <pre>
 *  0               1               2               3
 * +---------------+---------------+---------------+-----+---------+
 * |  Version = 1  |     Flags     | Function Type |OP ID| Msg Type|
 * +---------------+---------------+---------------+-----+---------+
 * |     Length (whole message)    |                               |
 * +-------------------------------+      MSID (6 octets, the MS's |
 * |                         48-bit MAC)                           |
 * +---------------------------------------------------------------+
 * |                          Reserved                             |
 * +-------------------------------+-------------------------------+
 * |D|     Transaction ID (15)     |           Reserved            |
 * +-------------------------------+-------------------------------+
 * |  TLVs at 20: type (2) | length (2, value only) | value, no padding
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Flags: 0x02 T (source/destination identifier TLVs present), 0x01 R (reset next expected
 * transaction ID). OP ID: 1 Request/Initiation, 2 Response, 3 Ack, 4 Indication. The top bit of
 * the transaction ID is the one Wireshark can show as a "D" bit; mclb rewrites only the 15 bits
 * below it and keeps it. Loop-confined.
 */
public final class AsnHeader {
    public static final int HEADER = 20;
    public static final int VERSION = 1;
    public static final int OP_REQUEST = 1;
    public static final int OP_RESPONSE = 2;
    public static final int OP_ACK = 3;
    public static final int OP_INDICATION = 4;
    public static final int FUNCTION_DATA_PATH = 3;
    public static final int FUNCTION_MS_STATE = 9;
    /** The transaction ID bits mclb rewrites per upstream path (the top bit is kept). */
    public static final int TID_MASK = 0x7FFF;

    private ByteBuf buf;
    private int start;
    private DropReason reason;

    public boolean wrap(ByteBuf b) {
        this.buf = b;
        this.start = b.readerIndex();
        int readable = b.readableBytes();
        if (readable < HEADER) {
            return fail(AsnDrops.TRUNCATED_HEADER);
        }
        if (b.getUnsignedByte(start) != VERSION) {
            return fail(AsnDrops.UNSUPPORTED_VERSION);
        }
        int length = b.getUnsignedShort(start + 4);
        if (length < HEADER) {
            return fail(AsnDrops.LENGTH_TOO_SHORT);
        }
        if (length > readable) {
            return fail(AsnDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        if (length < readable) {
            return fail(AsnDrops.LENGTH_MISMATCH); // what follows would reach the gateway unparsed
        }
        int end = start + length;
        int p = start + HEADER;
        while (p < end) {
            if (p + 4 > end) {
                return fail(AsnDrops.TLV_OVERRUNS_MESSAGE);
            }
            int next = p + 4 + b.getUnsignedShort(p + 2);
            if (next > end) {
                return fail(AsnDrops.TLV_OVERRUNS_MESSAGE);
            }
            p = next;
        }
        reason = null;
        return true;
    }

    private boolean fail(DropReason r) {
        reason = r;
        return false;
    }

    public DropReason reason() {
        return reason;
    }

    public int functionType() {
        return buf.getUnsignedByte(start + 2);
    }

    public int opId() {
        return buf.getUnsignedByte(start + 3) >>> 5;
    }

    public int messageType() {
        return buf.getUnsignedByte(start + 3) & 0x1F;
    }

    /** The MSID as the low 48 bits of a long. */
    public long msid() {
        return ((long) buf.getUnsignedShort(start + 6) << 32) | buf.getUnsignedInt(start + 8);
    }

    public int transactionId() {
        return buf.getUnsignedShort(start + 16);
    }

    /** Writes the 15 low bits of the transaction ID in place, keeping the top bit. */
    public static void writeTransactionId(ByteBuf b, int tid) {
        int at = b.readerIndex() + 16;
        b.setShort(at, (b.getUnsignedShort(at) & ~TID_MASK) | (tid & TID_MASK));
    }

    /** A gateway's Response's transaction ID bits (engine hook), or -1 when it is no readable Response. */
    public static long responseId(ByteBuf b) {
        int r = b.readerIndex();
        if (b.readableBytes() < HEADER || b.getUnsignedByte(r) != VERSION
                || (b.getUnsignedByte(r + 3) >>> 5) != OP_RESPONSE) {
            return -1;
        }
        return b.getUnsignedShort(r + 16) & TID_MASK;
    }
}
