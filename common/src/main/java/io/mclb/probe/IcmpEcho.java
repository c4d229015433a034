package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * ICMP Echo Request and Reply, IPv4 (RFC 792) and IPv6 (RFC 4443 section 4.1, 4.2):
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Type      |     Code      |          Checksum             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Identifier          |        Sequence Number        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Data: "mclbprob" ...
 * </pre>
 * Types: request 8 / reply 0 (IPv4), 128 / 129 (IPv6). mclb writes the IPv4 checksum (RFC 1071);
 * for ICMPv6 the kernel computes it over the pseudo-header, and a ping datagram socket also
 * rewrites the identifier (to its own "port"). A raw IPv4 socket delivers the IP header first.
 * Static helpers over the datagram's buffer: nothing is allocated to read a reply.
 */
final class IcmpEcho {
    static final int REQUEST_V4 = 8;
    static final int REPLY_V4 = 0;
    static final int REQUEST_V6 = 128;
    static final int REPLY_V6 = 129;
    static final int HEADER = 8;
    /** "mclbprob": tells our echoes from anybody else's on a raw socket. */
    static final long MAGIC = 0x6d636c6270726f62L;
    static final int LENGTH = HEADER + 8;

    private IcmpEcho() {
    }

    static ByteBuf request(ByteBufAllocator alloc, boolean v6, int ident, int seq) {
        ByteBuf b = alloc.buffer(LENGTH);
        b.writeByte(v6 ? REQUEST_V6 : REQUEST_V4).writeByte(0).writeShort(0).writeShort(ident).writeShort(seq)
                .writeLong(MAGIC);
        if (!v6) {
            b.setShort(2, checksum(b, 0, LENGTH));
        }
        return b;
    }

    /**
     * Where the ICMP message starts in a datagram read from an ICMP socket: after the IPv4
     * header on a raw IPv4 socket, else at once; -1 when that header is not one.
     */
    static int start(ByteBuf d, boolean v6, boolean raw) {
        int at = d.readerIndex();
        if (v6 || !raw) {
            return at;
        }
        if (d.readableBytes() < 20 || (d.getByte(at) & 0xf0) != 0x40) {
            return -1;
        }
        int ihl = (d.getByte(at) & 0x0f) * 4;
        return ihl < 20 || d.readableBytes() < ihl ? -1 : at + ihl;
    }

    /** Whether the ICMP message at {@code at} is one of our echo replies (type, code, length, data). */
    static boolean isOurReply(ByteBuf d, int at, boolean v6) {
        return at >= 0 && d.writerIndex() - at >= LENGTH
                && (d.getUnsignedByte(at) == (v6 ? REPLY_V6 : REPLY_V4)) && d.getByte(at + 1) == 0
                && d.getLong(at + HEADER) == MAGIC;
    }

    static int ident(ByteBuf d, int at) {
        return d.getUnsignedShort(at + 4);
    }

    static int sequence(ByteBuf d, int at) {
        return d.getUnsignedShort(at + 6);
    }

    /** The Internet checksum (RFC 1071) of {@code length} bytes from {@code at}. */
    static int checksum(ByteBuf b, int at, int length) {
        return InternetChecksum.of(b, at, length, 0);
    }
}
