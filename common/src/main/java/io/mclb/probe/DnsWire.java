package io.mclb.probe;

import io.netty.buffer.ByteBuf;

import java.net.IDN;
import java.nio.charset.StandardCharsets;

/**
 * The few DNS message facts the dns probe needs (RFC 1035 section 4.1), read in place from the
 * answer's buffer:
 * <pre>
 *   header: ID(16) | QR OPCODE(4) AA TC RD RA Z(3) RCODE(4) | QDCOUNT | ANCOUNT | NSCOUNT | ARCOUNT
 *   question: QNAME (labels, or a pointer) | QTYPE(16) | QCLASS(16)
 *   answer RR: NAME | TYPE(16) | CLASS(16) | TTL(32) | RDLENGTH(16) | RDATA
 * </pre>
 * Every length is checked against the datagram; a short or looping message reads as malformed.
 */
final class DnsWire {
    static final int HEADER = 12;
    static final int TYPE_A = 1;
    static final int TYPE_AAAA = 28;
    static final int CLASS_IN = 1;
    private static final int QR = 0x8000;
    private static final int TC = 0x0200;
    private static final int RD = 0x0100;
    private static final int MAX_LABELS = 128;

    private DnsWire() {
    }

    /** The QNAME of {@code name} in wire form (labels, root). */
    static byte[] encodeName(String name) {
        String ascii = IDN.toASCII(name.endsWith(".") ? name.substring(0, name.length() - 1) : name);
        byte[] out = new byte[ascii.length() + 2];
        int o = 0;
        for (String label : ascii.split("\\.")) {
            byte[] l = label.getBytes(StandardCharsets.US_ASCII);
            out[o++] = (byte) l.length;
            System.arraycopy(l, 0, out, o, l.length);
            o += l.length;
        }
        out[o++] = 0;
        return java.util.Arrays.copyOf(out, o);
    }

    /** A standard query with recursion desired, one question, class IN. */
    static void writeQuery(ByteBuf b, int id, byte[] qname, int qtype) {
        b.writeShort(id).writeShort(RD).writeShort(1).writeShort(0).writeShort(0).writeShort(0)
                .writeBytes(qname).writeShort(qtype).writeShort(CLASS_IN);
    }

    static boolean isResponseTo(ByteBuf d, int id) {
        int at = d.readerIndex();
        return d.readableBytes() >= HEADER && d.getUnsignedShort(at) == id && (d.getUnsignedShort(at + 2) & QR) != 0;
    }

    static int rcode(ByteBuf d) {
        return d.getUnsignedShort(d.readerIndex() + 2) & 0x0f;
    }

    static boolean truncated(ByteBuf d) {
        return (d.getUnsignedShort(d.readerIndex() + 2) & TC) != 0;
    }

    static String rcodeName(int rcode) {
        return switch (rcode) {
            case 0 -> "NOERROR";
            case 1 -> "FORMERR";
            case 2 -> "SERVFAIL";
            case 3 -> "NXDOMAIN";
            case 4 -> "NOTIMP";
            case 5 -> "REFUSED";
            default -> "RCODE " + rcode;
        };
    }

    /** Offset of the first answer record, or -1 when the question section is malformed. */
    static int answers(ByteBuf d) {
        int at = d.readerIndex() + HEADER;
        int questions = d.getUnsignedShort(d.readerIndex() + 4);
        for (int q = 0; q < questions; q++) {
            at = skipName(d, at);
            if (at < 0 || at + 4 > d.writerIndex()) {
                return -1;
            }
            at += 4;
        }
        return at;
    }

    static int answerCount(ByteBuf d) {
        return d.getUnsignedShort(d.readerIndex() + 6);
    }

    /** Offset just past the name at {@code at} (labels ending in a root label or a pointer), or -1. */
    static int skipName(ByteBuf d, int at) {
        for (int labels = 0; labels < MAX_LABELS; labels++) {
            if (at >= d.writerIndex()) {
                return -1;
            }
            int len = d.getUnsignedByte(at);
            if ((len & 0xc0) == 0xc0) {
                return at + 2 <= d.writerIndex() ? at + 2 : -1;
            }
            if ((len & 0xc0) != 0) {
                return -1;
            }
            at += 1 + len;
            if (len == 0) {
                return at;
            }
        }
        return -1;
    }

    /**
     * The resource record at {@code at}, packed as {@code TYPE << 48 | RDLENGTH << 32 | RDATA offset}
     * (read with {@link #type}, {@link #rdLength}, {@link #rdata}); -1 when it does not fit the datagram.
     */
    static long record(ByteBuf d, int at) {
        int p = skipName(d, at);
        if (p < 0 || p + 10 > d.writerIndex()) {
            return -1;
        }
        int type = d.getUnsignedShort(p);
        int rdlength = d.getUnsignedShort(p + 8);
        int rdata = p + 10;
        if (rdata + rdlength > d.writerIndex()) {
            return -1;
        }
        return ((long) type << 48) | ((long) rdlength << 32) | rdata;
    }

    static int type(long record) {
        return (int) (record >>> 48);
    }

    static int rdLength(long record) {
        return (int) ((record >>> 32) & 0xffff);
    }

    static int rdata(long record) {
        return (int) record;
    }
}
