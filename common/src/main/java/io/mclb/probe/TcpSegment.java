package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The TCP segments of a half-open check (RFC 9293 section 3.1): the SYN mclb sends, and the
 * SYN-ACK or reset it reads back.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Source Port          |       Destination Port        |
 * |                        Sequence Number                        |
 * |                    Acknowledgment Number                      |
 * | DOff  | Rsrvd |C|E|U|A|P|R|S|F|            Window             |
 * |           Checksum            |         Urgent Pointer        |
 * |  Kind 2 (MSS) |   Length 4    |        Maximum segment size   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The SYN carries one option, the MSS (as every stack's SYN does: without it the target assumes
 * 536). Over IPv4 mclb writes the checksum over the pseudo-header (source, destination, zero,
 * protocol 6, TCP length); over IPv6 the kernel does ({@code IPV6_CHECKSUM}). A raw IPv4 socket
 * delivers the IP header first. Static helpers over the segment's buffer: nothing is allocated to
 * read an answer.
 */
final class TcpSegment {
    static final int FIN = 0x01;
    static final int SYN = 0x02;
    static final int RST = 0x04;
    static final int ACK = 0x10;
    static final int HEADER = 20;
    static final int SYN_LENGTH = HEADER + 4;
    static final int MSS = 1460;
    /** A SYN's receive window: what Linux offers before scaling, 64240 (44 x 1460). */
    static final int WINDOW = 64240;
    private static final int PROTOCOL_TCP = 6;

    private TcpSegment() {
    }

    /**
     * A SYN from {@code sourcePort} to {@code targetPort} with sequence number {@code seq}.
     *
     * @param sourceV4 the IPv4 source address the kernel will send it from, as an int, for the
     *                 checksum; ignored when {@code v6} (the kernel computes it)
     */
    static ByteBuf syn(ByteBufAllocator alloc, boolean v6, int sourceV4, int targetV4, int sourcePort, int targetPort,
                       int seq) {
        ByteBuf b = alloc.buffer(SYN_LENGTH);
        b.writeShort(sourcePort).writeShort(targetPort).writeInt(seq).writeInt(0)
                .writeByte((SYN_LENGTH / 4) << 4).writeByte(SYN).writeShort(WINDOW)
                .writeShort(0).writeShort(0)
                .writeByte(2).writeByte(4).writeShort(MSS);
        if (!v6) {
            b.setShort(16, InternetChecksum.of(b, 0, SYN_LENGTH, pseudoHeaderSum(sourceV4, targetV4, SYN_LENGTH)));
        }
        return b;
    }

    /** The sum of the IPv4 pseudo-header's 16-bit words (RFC 9293 section 3.1). */
    static long pseudoHeaderSum(int source, int destination, int tcpLength) {
        return (source >>> 16) + (source & 0xffff) + (destination >>> 16) + (destination & 0xffff)
                + PROTOCOL_TCP + tcpLength;
    }

    /**
     * Where the TCP header starts in a datagram read from a raw TCP socket: after the IPv4 header
     * (whose length it reads), at once for IPv6; -1 when what is there cannot hold a TCP header.
     */
    static int start(ByteBuf d, boolean v6) {
        int at = d.readerIndex();
        if (!v6) {
            if (d.readableBytes() < 20 || (d.getByte(at) & 0xf0) != 0x40) {
                return -1;
            }
            int ihl = (d.getByte(at) & 0x0f) * 4;
            if (ihl < 20) {
                return -1;
            }
            at += ihl;
        }
        return d.writerIndex() - at >= HEADER ? at : -1;
    }

    static int sourcePort(ByteBuf d, int at) {
        return d.getUnsignedShort(at);
    }

    static int destinationPort(ByteBuf d, int at) {
        return d.getUnsignedShort(at + 2);
    }

    static int sequence(ByteBuf d, int at) {
        return d.getInt(at + 4);
    }

    static int acknowledgment(ByteBuf d, int at) {
        return d.getInt(at + 8);
    }

    static int flags(ByteBuf d, int at) {
        return d.getUnsignedByte(at + 13);
    }

    /** Whether the flags are a SYN-ACK's (a listener has room). */
    static boolean isSynAck(int flags) {
        return (flags & (SYN | ACK | RST)) == (SYN | ACK);
    }

    /** Whether the flags are a reset that acknowledges something (the answer of a closed port). */
    static boolean isAckedReset(int flags) {
        return (flags & (RST | ACK)) == (RST | ACK);
    }

    /** An IPv4 address's four bytes as one int, in network order. */
    static int v4(byte[] a) {
        return (a[0] & 0xff) << 24 | (a[1] & 0xff) << 16 | (a[2] & 0xff) << 8 | (a[3] & 0xff);
    }
}
