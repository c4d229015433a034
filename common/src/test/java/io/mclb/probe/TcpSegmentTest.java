package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The half-open check's segments: the SYN mclb writes and the answers a raw socket delivers. The
 * expected bytes are scapy 2.5's (python3-scapy) for the same fields, an independent
 * implementation of the header and its pseudo-header checksum; that a target's kernel accepts the
 * SYN is {@code TcpHalfOpenInteropIT}'s to show.
 */
class TcpSegmentTest {
    private static ByteBuf hex(String s) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(s));
    }

    private static int v4(String a) throws Exception {
        return TcpSegment.v4(InetAddress.getByName(a).getAddress());
    }

    /**
     * {@code IP(src='192.0.2.1',dst='198.51.100.2')/TCP(sport=40000,dport=80,seq=0x12345678,
     * flags='S',window=64240,options=[('MSS',1460)])}, the TCP part.
     */
    @Test
    void ipv4SynMatchesScapysBytesChecksumIncluded() throws Exception {
        ByteBuf b = TcpSegment.syn(ByteBufAllocator.DEFAULT, false, v4("192.0.2.1"), v4("198.51.100.2"), 40000, 80,
                0x12345678);
        assertThat(HexFormat.of().formatHex(ByteBufUtil.getBytes(b)))
                .isEqualTo("9c40005012345678000000006002faf0abc10000020405b4");
        long pseudo = TcpSegment.pseudoHeaderSum(v4("192.0.2.1"), v4("198.51.100.2"), b.readableBytes());
        assertThat(InternetChecksum.of(b, 0, b.readableBytes(), pseudo)).as("a correct checksum sums to zero").isZero();
        b.release();
    }

    @Test
    void ipv6SynLeavesTheChecksumToTheKernel() {
        ByteBuf b = TcpSegment.syn(ByteBufAllocator.DEFAULT, true, 0, 0, 40000, 443, -2);
        assertThat(b.readableBytes()).isEqualTo(TcpSegment.SYN_LENGTH);
        assertThat(b.getUnsignedShort(16)).as("checksum field").isZero();
        assertThat(b.getInt(4)).isEqualTo(-2);
        assertThat(TcpSegment.flags(b, 0)).isEqualTo(TcpSegment.SYN);
        b.release();
    }

    /** A raw IPv4 socket delivers the IP header first: scapy's SYN-ACK with MSS, SACK-permitted and window scale. */
    @Test
    void synAckIsReadAfterTheIpHeader() {
        ByteBuf d = hex("450000340001000040068e8cc6336402c000020100509c40cafe0001123456798012fe88af0b0000020405b40402030307000000");
        int at = TcpSegment.start(d, false);
        assertThat(at).isEqualTo(20);
        assertThat(TcpSegment.sourcePort(d, at)).isEqualTo(80);
        assertThat(TcpSegment.destinationPort(d, at)).isEqualTo(40000);
        assertThat(TcpSegment.acknowledgment(d, at)).isEqualTo(0x12345679);
        assertThat(TcpSegment.isSynAck(TcpSegment.flags(d, at))).isTrue();
        assertThat(TcpSegment.isAckedReset(TcpSegment.flags(d, at))).isFalse();
    }

    /** A closed port's answer to a SYN: RST and ACK, acknowledging the SYN's sequence number + 1. */
    @Test
    void resetOfAClosedPortIsAnAckedReset() {
        ByteBuf d = hex("450000280001000040068e98c6336402c000020100519c40000000001234567950140000be5a0000");
        int at = TcpSegment.start(d, false);
        assertThat(TcpSegment.sourcePort(d, at)).isEqualTo(81);
        assertThat(TcpSegment.acknowledgment(d, at) - 1).isEqualTo(0x12345678);
        assertThat(TcpSegment.isAckedReset(TcpSegment.flags(d, at))).isTrue();
        assertThat(TcpSegment.isSynAck(TcpSegment.flags(d, at))).isFalse();
    }

    /** IPv6 raw sockets deliver from the TCP header; a bare RST (no ACK) acknowledges nothing of ours. */
    @Test
    void ipv6StartsAtTheTcpHeaderAndABareResetIsNotAnAnswer() {
        ByteBuf d = hex("0051 9c40 00000001 00000000 5004 0000 0000 0000".replace(" ", ""));
        assertThat(TcpSegment.start(d, true)).isZero();
        assertThat(TcpSegment.isAckedReset(TcpSegment.flags(d, 0))).isFalse();
    }

    @Test
    void truncatedOrNonIpv4DataHasNoSegment() {
        assertThat(TcpSegment.start(hex("4500001c00010000400600000a0000010a000002"), false)).as("no room for TCP").isEqualTo(-1);
        assertThat(TcpSegment.start(hex("6000000000000000000000000000000000000000"), false)).as("not IPv4").isEqualTo(-1);
        assertThat(TcpSegment.start(hex("4100"), false)).isEqualTo(-1);
        assertThat(TcpSegment.start(hex("0050"), true)).isEqualTo(-1);
    }
}
