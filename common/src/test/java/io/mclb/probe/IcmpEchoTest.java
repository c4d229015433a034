package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** ICMP echo bytes: requests mclb writes and replies the kernel delivers, over captured datagrams. */
class IcmpEchoTest {
    private static ByteBuf hex(String s) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(s));
    }

    @Test
    void ipv4RequestHasTheRfc1071ChecksumAndOurData() {
        ByteBuf b = IcmpEcho.request(ByteBufAllocator.DEFAULT, false, 0x1234, 7);
        assertThat(HexFormat.of().formatHex(io.netty.buffer.ByteBufUtil.getBytes(b)))
                .startsWith("0800").endsWith("123400076d636c6270726f62");
        assertThat(IcmpEcho.checksum(b, 0, b.readableBytes())).as("a correct checksum sums to zero").isZero();
        b.release();
    }

    @Test
    void ipv6RequestLeavesTheChecksumToTheKernel() {
        ByteBuf b = IcmpEcho.request(ByteBufAllocator.DEFAULT, true, 1, 2);
        assertThat((int) b.getUnsignedByte(0)).isEqualTo(IcmpEcho.REQUEST_V6);
        assertThat(b.getUnsignedShort(2)).isZero();
        b.release();
    }

    /**
     * A raw IPv4 socket delivers the IP header: captured on loopback from a raw socket opened by
     * this build's helper (echo reply to ident 0x1234, seq 7, data "hello" of a hand-made request).
     */
    @Test
    void rawIpv4ReplyIsFoundAfterTheIpHeader() {
        ByteBuf d = hex("45000021cb1f00004001b1ba7f0000017f0000010000a9f21234000768656c6c6f");
        int at = IcmpEcho.start(d, false, true);
        assertThat(at).isEqualTo(20);
        assertThat(IcmpEcho.ident(d, at)).isEqualTo(0x1234);
        assertThat(IcmpEcho.sequence(d, at)).isEqualTo(7);
        assertThat(IcmpEcho.checksum(d, at, d.writerIndex() - at)).as("the kernel's checksum").isZero();
        assertThat(IcmpEcho.isOurReply(d, at, false)).as("not our data").isFalse();
        ByteBuf ours = hex("45000024cb1f00004001b1b77f0000017f000001" + "0000000012340007" + "6d636c6270726f62");
        assertThat(IcmpEcho.isOurReply(ours, IcmpEcho.start(ours, false, true), false)).isTrue();
    }

    /** A ping datagram socket delivers the ICMP message alone; the kernel chose the identifier. */
    @Test
    void datagramSocketReplyStartsAtOnceAndForeignDataIsNotOurs() {
        ByteBuf ours = hex("0000e820d405000b6d636c6270726f62");
        assertThat(IcmpEcho.isOurReply(ours, IcmpEcho.start(ours, false, false), false)).isTrue();
        assertThat(IcmpEcho.sequence(ours, 0)).isEqualTo(11);
        ByteBuf theirs = hex("0000e820d405000768656c6c6f000000"); // the system ping's "hello..."
        assertThat(IcmpEcho.isOurReply(theirs, 0, false)).isFalse();
        ByteBuf request = hex("0800e820d405000b6d636c6270726f62");
        assertThat(IcmpEcho.isOurReply(request, 0, false)).as("a request is not a reply").isFalse();
        ByteBuf v6 = hex("810066d6d406000b6d636c6270726f62");
        assertThat(IcmpEcho.isOurReply(v6, IcmpEcho.start(v6, true, true), true)).isTrue();
        assertThat(IcmpEcho.start(hex("6000"), false, true)).as("not an IPv4 header").isEqualTo(-1);
    }
}
