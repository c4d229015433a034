package io.mclb.gtp.v2;

import static io.mclb.gtp.GtpTestMessages.buf;
import static io.mclb.gtp.GtpTestMessages.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.GtpTestMessages.Bytes;
import io.mclb.gtp.Tbcd;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Vectors: the scapy script of peers.md section 9 (with its length fixes), see {@link GtpTestMessages}. */
class GtpV2MessageTest {
    private final GtpV2Message m = new GtpV2Message();
    private final GtpV2Fteid f = new GtpV2Fteid();

    @Test
    void decodesCreateSessionRequest() {
        assertThat(m.wrap(buf(GtpTestMessages.v2CreateSessionRequest()))).isTrue();
        assertThat(m.version()).isEqualTo(2);
        assertThat(m.messageType()).isEqualTo(32);
        assertThat(m.type().isRequest()).isTrue();
        assertThat(m.hasTeid()).isTrue();
        assertThat(m.teid()).isZero();
        assertThat(m.sequence()).isEqualTo(1);
        assertThat(m.hasPiggyback()).isFalse();
        assertThat(m.messagePriority()).isEqualTo(-1);
        assertThat(Tbcd.toString(m.imsi())).isEqualTo("262010000000001");
        assertThat(m.imsiRaw()).isEqualTo(Tbcd.encodeRaw("262010000000001"));
        assertThat(m.ratType()).isEqualTo(6);
        assertThat(m.apnEquals(GtpTestMessages.APN_INTERNET)).isTrue();
        assertThat(m.ebi()).isEqualTo(5);
        assertThat(m.fteid(0, f)).isTrue();
        assertThat(f.instance()).isZero();
        assertThat(f.interfaceType()).isEqualTo(GtpV2Ie.IF_S11_MME_GTPC);
        assertThat(f.teid()).isEqualTo(0x1000);
        assertThat(f.hasIpv4()).isTrue();
        assertThat(f.ipv4()).isEqualTo(0x7f000014);
        assertThat(f.hasIpv6()).isFalse();
        assertThat(m.fteid(1, f)).isFalse();
        assertThat(m.hasCause()).isFalse();
    }

    @Test
    void decodesAcceptedResponseWithPgwControlFteid() {
        assertThat(m.wrap(buf(GtpTestMessages.v2CreateSessionResponse(16)))).isTrue();
        assertThat(m.type().isResponse()).isTrue();
        assertThat(m.teid()).isEqualTo(0x1000);
        assertThat(m.cause()).isEqualTo(16);
        assertThat(m.causeFlags()).isZero();
        assertThat(GtpCause.classifyV2(m.cause())).isEqualTo(GtpCause.Action.ACCEPTED);
        assertThat(m.recovery()).isEqualTo(9);
        assertThat(m.fteid(1, f)).isTrue();
        assertThat(f.interfaceType()).isEqualTo(GtpV2Ie.IF_S5S8_PGW_GTPC);
        assertThat(f.teid()).isEqualTo(0x2000);
        assertThat(f.ipv4()).isEqualTo(0x7f000015);
        byte[] v6 = new byte[16];
        assertThat(f.ipv6(v6)).isTrue();
        assertThat(v6[0]).isEqualTo((byte) 0x20);
        assertThat(v6[15]).isEqualTo((byte) 0x15);
    }

    @Test
    void decodesNoResourcesResponse() {
        assertThat(m.wrap(buf(GtpTestMessages.v2CreateSessionResponse(73)))).isTrue();
        assertThat(m.cause()).isEqualTo(73);
        assertThat(GtpCause.classifyV2(m.cause())).isEqualTo(GtpCause.Action.NODE_FAILURE);
        assertThat(m.hasFteid(1)).isFalse();
        assertThat(m.recovery()).isEqualTo(-1);
    }

    @Test
    void everyTruncationIsRefused() {
        byte[] full = GtpTestMessages.v2CreateSessionRequest();
        for (int n = 0; n < full.length; n++) {
            assertThat(m.wrap(buf(Arrays.copyOf(full, n)))).as("length %d", n).isFalse();
            assertThat(m.reason()).isIn(GtpDrops.TRUNCATED_HEADER, GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
    }

    @Test
    void lengthChecks() {
        byte[] b = GtpTestMessages.v2CreateSessionRequest();
        b[3]++;
        assertThat(m.wrap(buf(b))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        // T = 1 needs length >= 8
        assertThat(m.wrap(buf(hex("48200004 00000000 00000100")))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.LENGTH_TOO_SHORT);
    }

    @Test
    void ieOverrunAtTopLevelAndInsideABearerContext() {
        byte[] top = new Bytes().u8(1).u16(8).u8(0).hex("62020100").bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v2(32, 0, 1, top)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
        byte[] half = new Bytes().u8(1).u16(8).bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v2(32, 0, 1, half)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
        byte[] inner = new Bytes().u8(73).u16(5).u8(0).u8(5).bytes();
        byte[] grouped = new Bytes().ie2(93, 0, inner).bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v2(32, 0, 1, grouped)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
    }

    @Test
    void unknownVersionsAreRefused() {
        for (int v : new int[] {0, 1, 3, 4, 5, 6, 7}) {
            byte[] b = GtpTestMessages.v2CreateSessionRequest();
            b[0] = (byte) ((v << 5) | 0x08);
            assertThat(m.wrap(buf(b))).isFalse();
            assertThat(m.reason()).isSameAs(GtpDrops.UNSUPPORTED_VERSION);
        }
    }

    @Test
    void imsiProblemsAreReported() {
        byte[] noImsi = GtpTestMessages.v2(32, 0, 1, new Bytes().ie2(82, 0, hex("06")).bytes());
        assertThat(m.wrap(buf(noImsi))).isTrue();
        assertThat(GtpDrops.forImsi(m.imsi())).isSameAs(GtpDrops.IMSI_MISSING);
        assertThat(m.imsiRaw()).isEqualTo(Tbcd.EMPTY_RAW);
        byte[] bad = GtpTestMessages.v2(32, 0, 1, new Bytes().ie2(1, 0, hex("62c2")).bytes());
        assertThat(m.wrap(buf(bad))).isTrue();
        assertThat(GtpDrops.forImsi(m.imsi())).isSameAs(GtpDrops.IMSI_NOT_BCD);
        byte[] empty = GtpTestMessages.v2(32, 0, 1, new Bytes().ie2(1, 0, new byte[0]).bytes());
        assertThat(m.wrap(buf(empty))).isTrue();
        assertThat(GtpDrops.forImsi(m.imsi())).isSameAs(GtpDrops.IMSI_NOT_BCD);
    }

    @Test
    void echoWithoutTeidAndPiggyback() {
        // Echo Request T = 0: 8-octet header, Recovery 3
        byte[] echo = hex("40010009 00002a00 03000100 03");
        assertThat(m.wrap(buf(echo))).isTrue();
        assertThat(m.hasTeid()).isFalse();
        assertThat(m.teid()).isZero();
        assertThat(m.setTeid(1)).isFalse();
        assertThat(m.sequence()).isEqualTo(0x2a);
        assertThat(m.recovery()).isEqualTo(3);
        // P = 1 with a second message after the first
        byte[] first = GtpTestMessages.v2CreateSessionResponse(16);
        first[0] = 0x58;
        byte[] both = new Bytes().raw(first).raw(GtpTestMessages.v2(95, 1, 1, new byte[0])).bytes();
        assertThat(m.wrap(buf(both))).isTrue();
        assertThat(m.piggybackOffset()).isEqualTo(first.length);
        GtpV2Message pig = new GtpV2Message();
        assertThat(pig.wrap(buf(both), m.piggybackOffset(), both.length - first.length)).isTrue();
        assertThat(pig.messageType()).isEqualTo(95);
    }

    @Test
    void messagePriorityAndCommandSequence() {
        byte[] b = hex("4c400008 00000001 800001 50");
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(m.messagePriority()).isEqualTo(5);
        assertThat(m.isCommandSequence()).isTrue();
        assertThat(m.type().isInitial()).isTrue();
    }

    @Test
    void twentyFourBitSequenceAndTeidPatchInPlace() {
        byte[] b = GtpTestMessages.v2CreateSessionRequest();
        ByteBuf buf = buf(b);
        assertThat(m.wrap(buf)).isTrue();
        m.setSequence(0xABCDEF);
        assertThat(m.setTeid(0x11223344)).isTrue();
        GtpV2Message again = new GtpV2Message();
        assertThat(again.wrap(buf)).isTrue();
        assertThat(again.sequence()).isEqualTo(0xABCDEF);
        assertThat(again.teid()).isEqualTo(0x11223344);
        assertThat(b[11]).isZero();
        again.setSequence(1);
        again.setTeid(0);
        assertThat(b).isEqualTo(GtpTestMessages.v2CreateSessionRequest());
    }

    @Test
    void fteidShorterThanItsFlagsIsRefused() {
        byte[] ies = new Bytes().ie2(87, 0, hex("ca 00001000 7f000014")).bytes(); // V4+V6 but no IPv6
        assertThat(m.wrap(buf(GtpTestMessages.v2(32, 0, 1, ies)))).isTrue();
        assertThat(m.hasFteid(0)).isTrue();
        assertThat(m.fteid(0, f)).isFalse();
    }
}
