package io.mclb.gtp.v1;

import static io.mclb.gtp.GtpTestMessages.buf;
import static io.mclb.gtp.GtpTestMessages.tbcd8;
import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.GtpTestMessages.Bytes;
import io.mclb.gtp.Tbcd;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Vectors: see {@link GtpTestMessages} (osmo-ggsn / sgsnemu layouts, peers.md sections 7 and 9). */
class GtpV1MessageTest {
    private final GtpV1Message m = new GtpV1Message();

    @Test
    void decodesCreatePdpContextRequest() {
        assertThat(m.wrap(buf(GtpTestMessages.v1CreateRequest()))).isTrue();
        assertThat(m.version()).isEqualTo(1);
        assertThat(m.protocolType()).isEqualTo(1);
        assertThat(m.messageType()).isEqualTo(16);
        assertThat(m.type().isRequest()).isTrue();
        assertThat(m.teid()).isZero();
        assertThat(m.hasSequence()).isTrue();
        assertThat(m.sequence()).isEqualTo(0x1234);
        assertThat(m.trailingBytes()).isZero();
        GtpV1IeIndex ies = m.ies();
        assertThat(Tbcd.toString(ies.imsi())).isEqualTo("262010000000001");
        assertThat(ies.imsiRaw()).isEqualTo(0x62020100000000F1L);
        assertThat(ies.recovery()).isZero();
        assertThat(ies.teidControl(false)).isEqualTo(1);
        assertThat(ies.teidDataI(false)).isEqualTo(1);
        assertThat(ies.nsapi()).isEqualTo(5);
        assertThat(ies.apnEquals(GtpTestMessages.APN_INTERNET)).isTrue();
        assertThat(ies.apnEquals(io.mclb.gtp.Apn.encode("INTERNET"))).isTrue();
        assertThat(ies.gsnAddressIpv4(0)).isEqualTo(0x7f00000a);
        assertThat(ies.gsnAddressIpv4(1)).isEqualTo(0x7f00000b);
        assertThat(ies.hasCause()).isFalse();
        assertThat(ies.cause()).isEqualTo(-1);
        assertThat(ies.ieCount()).isEqualTo(13);
    }

    @Test
    void decodesAcceptedCreateResponseWithGgsnControlAddress() {
        assertThat(m.wrap(buf(GtpTestMessages.v1CreateResponse(128)))).isTrue();
        assertThat(m.type().isResponse()).isTrue();
        assertThat(m.teid()).isEqualTo(1);
        assertThat(m.ies().cause()).isEqualTo(128);
        assertThat(GtpCause.classifyV1(m.ies().cause())).isEqualTo(GtpCause.Action.ACCEPTED);
        assertThat(m.ies().recovery()).isEqualTo(7);
        assertThat(m.ies().teidControl(false)).isEqualTo(0x0202);
        assertThat(m.ies().gsnAddressIpv4(0)).isEqualTo(0x7f000002);
        assertThat(m.ies().gsnAddressLength(1)).isEqualTo(16);
        assertThat(m.ies().gsnAddressIpv4(1)).isZero();
        byte[] v6 = new byte[16];
        assertThat(m.ies().gsnAddress(1, v6)).isEqualTo(16);
        assertThat(v6[15]).isEqualTo((byte) 2);
        assertThat(m.ies().endUserAddressLength()).isEqualTo(6);
    }

    @Test
    void decodesNodeFailureResponse() {
        assertThat(m.wrap(buf(GtpTestMessages.v1CreateResponse(199)))).isTrue();
        assertThat(m.ies().cause()).isEqualTo(199);
        assertThat(GtpCause.classifyV1(m.ies().cause())).isEqualTo(GtpCause.Action.NODE_FAILURE);
        assertThat(m.ies().gsnAddressOffset(0)).isEqualTo(-1);
    }

    @Test
    void everyTruncationIsRefusedWithAReason() {
        byte[] full = GtpTestMessages.v1CreateRequest();
        for (int n = 0; n < full.length; n++) {
            boolean ok = m.wrap(buf(Arrays.copyOf(full, n)));
            assertThat(ok).as("length %d", n).isFalse();
            assertThat(m.reason()).as("length %d", n)
                .isIn(GtpDrops.TRUNCATED_HEADER, GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        assertThat(m.wrap(buf(new byte[0]))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.TRUNCATED_HEADER);
    }

    @Test
    void lengthFieldPastTheDatagram() {
        byte[] b = GtpTestMessages.v1CreateRequest();
        b[3]++;
        assertThat(m.wrap(buf(b))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
    }

    @Test
    void trailingOctetsAreToleratedAndCounted() {
        byte[] b = Arrays.copyOf(GtpTestMessages.v1CreateRequest(), GtpTestMessages.v1CreateRequest().length + 3);
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(m.trailingBytes()).isEqualTo(3);
    }

    @Test
    void ieOverrunningTheMessage() {
        // APN claims 9 octets but the message ends after 4 of them
        byte[] ies = new Bytes().u8(2).raw(tbcd8("262010000000001")).u8(131).u16(9).hex("08696e74").bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, ies)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
        // a fixed-length IMSI cut short
        byte[] cut = new Bytes().u8(2).hex("620201").bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, cut)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
        // TLV whose length octets are cut
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, new Bytes().u8(133).u8(0).bytes())))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.IE_OVERRUNS_MESSAGE);
    }

    @Test
    void unknownFixedLengthIeStopsTheParseEvenWhenLast() {
        byte[] ies = new Bytes().u8(2).raw(tbcd8("262010000000001")).u8(100).u8(0).bytes();
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, ies)))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.UNKNOWN_FIXED_LENGTH_IE);
    }

    @Test
    void unknownVersionsAreRefused() {
        for (int v = 3; v <= 7; v++) {
            byte[] b = GtpTestMessages.v1CreateRequest();
            b[0] = (byte) ((v << 5) | 0x12);
            assertThat(m.wrap(buf(b))).isFalse();
            assertThat(m.reason()).isSameAs(GtpDrops.UNSUPPORTED_VERSION);
        }
    }

    @Test
    void gtpPrimeIsRefused() {
        byte[] b = GtpTestMessages.v1CreateRequest();
        b[0] = 0x22;
        assertThat(m.wrap(buf(b))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.GTP_PRIME);
    }

    @Test
    void imsiWithNonBcdDigitIsReported() {
        byte[] imsi = tbcd8("262010000000001");
        imsi[3] = (byte) 0xA0;
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, GtpTestMessages.v1CreateRequestIes(imsi))))).isTrue();
        assertThat(m.ies().imsi()).isEqualTo(Tbcd.NOT_BCD);
        assertThat(GtpDrops.forImsi(m.ies().imsi())).isSameAs(GtpDrops.IMSI_NOT_BCD);
    }

    @Test
    void createWithoutImsiIsReported() {
        assertThat(m.wrap(buf(GtpTestMessages.v1(16, 0, 1, GtpTestMessages.v1CreateRequestIes(null))))).isTrue();
        assertThat(m.ies().hasImsi()).isFalse();
        assertThat(m.ies().imsiRaw()).isEqualTo(Tbcd.EMPTY_RAW);
        assertThat(GtpDrops.forImsi(m.ies().imsi())).isSameAs(GtpDrops.IMSI_MISSING);
    }

    @Test
    void sequenceAndTeidPatchInPlace() {
        byte[] b = GtpTestMessages.v1CreateRequest();
        ByteBuf buf = buf(b);
        assertThat(m.wrap(buf)).isTrue();
        assertThat(m.setSequence(0xBEEF)).isTrue();
        m.setTeid(0x01020304);
        GtpV1Message again = new GtpV1Message();
        assertThat(again.wrap(buf)).isTrue();
        assertThat(again.sequence()).isEqualTo(0xBEEF);
        assertThat(again.teid()).isEqualTo(0x01020304);
        again.setSequence(0x1234);
        again.setTeid(0);
        assertThat(b).isEqualTo(GtpTestMessages.v1CreateRequest());
    }

    @Test
    void withoutSFlagThereIsNoSequence() {
        // 8-octet header, Echo Request with no IEs
        assertThat(m.wrap(buf(GtpTestMessages.hex("30010000 00000000")))).isTrue();
        assertThat(m.hasSequence()).isFalse();
        assertThat(m.sequence()).isEqualTo(-1);
        assertThat(m.setSequence(5)).isFalse();
        assertThat(m.iesOffset()).isEqualTo(8);
        // E/S/PN set but length too short for the optional block
        assertThat(m.wrap(buf(GtpTestMessages.hex("32010002 00000000 0001")))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.LENGTH_TOO_SHORT);
    }

    @Test
    void extensionHeadersAreSkipped() {
        // E + S, next type 0x40 (UDP Port): len 1 (4 octets) = 01 0868 00, then Recovery IE
        byte[] b = GtpTestMessages.hex("36020000 00000000 00010040 01086800 0e05");
        b[3] = (byte) (b.length - 8);
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(m.iesOffset()).isEqualTo(16);
        assertThat(m.ies().recovery()).isEqualTo(5);
        byte[] bad = GtpTestMessages.hex("36020000 00000000 00010040 00086800");
        bad[3] = (byte) (bad.length - 8);
        assertThat(m.wrap(buf(bad))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.BAD_EXTENSION_HEADER);
        byte[] runaway = GtpTestMessages.hex("36020000 00000000 00010040 02086800");
        runaway[3] = (byte) (runaway.length - 8);
        assertThat(m.wrap(buf(runaway))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.BAD_EXTENSION_HEADER);
    }

    @Test
    void wrapsAtTheReaderIndexWithoutCopy() {
        byte[] msg = GtpTestMessages.v1CreateRequest();
        ByteBuf b = Unpooled.buffer().writeBytes(new byte[] {9, 9, 9}).writeBytes(msg);
        b.readerIndex(3);
        assertThat(m.wrap(b)).isTrue();
        assertThat(Tbcd.toString(m.ies().imsi())).isEqualTo("262010000000001");
        assertThat(m.ies().imsiOffset()).isEqualTo(3 + 12 + 1);
    }

    @Test
    void cursorWalksEveryIe() {
        assertThat(m.wrap(buf(GtpTestMessages.v1CreateRequest()))).isTrue();
        GtpV1IeCursor c = m.ieCursor(new GtpV1IeCursor());
        StringBuilder types = new StringBuilder();
        while (c.next()) {
            types.append(c.type()).append(' ');
        }
        assertThat(c.error()).isNull();
        assertThat(types.toString().trim()).isEqualTo("2 14 15 16 17 20 26 128 131 133 133 134 135");
    }

    @Test
    void tPduPayloadIsNotParsedAsIes() {
        byte[] b = GtpTestMessages.hex("30ff0004 00000001 45000000");
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(m.ies().ieCount()).isZero();
    }
}
