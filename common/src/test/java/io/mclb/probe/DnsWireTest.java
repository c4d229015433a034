package io.mclb.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DNS facts over answers captured from dnsmasq 2.90 (Debian 12) in a namespace, started as in
 * peers.md section 11 with {@code --address=/probe.test/192.0.2.7 --local=/test/}.
 */
class DnsWireTest {
    /** probe.test A, id 0x1234: NOERROR, one answer 192.0.2.7 with a compression pointer to the question. */
    static final String ANSWER = "1234858000010001000000000570726f626504746573740000010001"
            + "c00c00010001000000000004c0000207";
    /** nothere.test A, id 0x4321: NXDOMAIN. */
    static final String NXDOMAIN = "432181830001000000000000076e6f746865726504746573740000010001";
    /** other.example A, id 0x7777: REFUSED (no upstream). */
    static final String REFUSED = "777781850001000000000000056f74686572076578616d706c650000010001";

    private static ByteBuf hex(String s) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(s));
    }

    @Test
    void queryIsTheOneDnsmasqAnswered() {
        ByteBuf q = Unpooled.buffer();
        DnsWire.writeQuery(q, 0x1234, DnsWire.encodeName("probe.test."), DnsWire.TYPE_A);
        assertThat(HexFormat.of().formatHex(ByteBufUtil.getBytes(q)))
                .isEqualTo("123401000001000000000000" + "0570726f626504746573740000010001");
    }

    @Test
    void answerRecordIsReadThroughTheCompressionPointer() {
        ByteBuf d = hex(ANSWER);
        assertThat(DnsWire.isResponseTo(d, 0x1234)).isTrue();
        assertThat(DnsWire.isResponseTo(d, 0x1235)).isFalse();
        assertThat(DnsWire.rcode(d)).isZero();
        assertThat(DnsWire.answerCount(d)).isEqualTo(1);
        long rr = DnsWire.record(d, DnsWire.answers(d));
        assertThat(DnsWire.type(rr)).isEqualTo(DnsWire.TYPE_A);
        assertThat(DnsWire.rdLength(rr)).isEqualTo(4);
        assertThat(d.getInt(DnsWire.rdata(rr))).isEqualTo(0xc0000207);
    }

    @Test
    void errorCodesAreNamed() {
        assertThat(DnsWire.rcodeName(DnsWire.rcode(hex(NXDOMAIN)))).isEqualTo("NXDOMAIN");
        assertThat(DnsWire.rcodeName(DnsWire.rcode(hex(REFUSED)))).isEqualTo("REFUSED");
    }

    @Test
    void truncatedOrLoopingMessagesReadAsMalformed() {
        ByteBuf cut = hex(ANSWER.substring(0, ANSWER.length() - 6));
        assertThat(DnsWire.record(cut, DnsWire.answers(cut))).isEqualTo(-1);
        // a question cut short after its name
        ByteBuf loop = hex("123485800001000000000000" + "c00c");
        assertThat(DnsWire.answers(loop)).isEqualTo(-1);
        ByteBuf labels = hex("123485800001000000000000" + "3f");
        assertThat(DnsWire.skipName(labels, 12)).isEqualTo(-1);
    }
}
