package io.mclb.gtp;

import static io.mclb.gtp.GtpTestMessages.buf;
import static io.mclb.gtp.GtpTestMessages.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared header checks and the layout table, through the base type of the three flyweights. */
class GtpHeaderTest {
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final List<GtpHeader> all = List.of(v0, v1, v2);

    @Test
    void layoutsAgreeWithThePublicConstants() {
        assertThat(GtpHeader.Layout.V0.fixedHeaderLength).isEqualTo(GtpV0Message.HEADER_LENGTH);
        assertThat(GtpHeader.Layout.V1.fixedHeaderLength).isEqualTo(GtpV1Message.MANDATORY_HEADER_LENGTH);
        assertThat(GtpHeader.Layout.V0.version).isEqualTo(GtpVersion.V0);
        assertThat(GtpHeader.Layout.V1.version).isEqualTo(GtpVersion.V1);
        assertThat(GtpHeader.Layout.V2.version).isEqualTo(GtpVersion.V2);
    }

    @Test
    void everyVersionReadsThroughTheBase() {
        ByteBuf[] echo = {Unpooled.buffer(), Unpooled.buffer(), Unpooled.buffer()};
        GtpEchoEncoder.writeV0(echo[0], 0xBEEF, 1);
        GtpEchoEncoder.writeV1(echo[1], 0xBEEF, 1);
        GtpEchoEncoder.writeV2(echo[2], 0xABCDEF, 1);
        int[] headerLength = {20, 12, 8};
        for (int v = 0; v < 3; v++) {
            GtpHeader h = all.get(v);
            assertThat(h.wrap(echo[v])).as("v%d", v).isTrue();
            assertThat(h.reason()).isNull();
            assertThat(h.version()).isEqualTo(v);
            assertThat(h.type().family()).isEqualTo(v == 2 ? 2 : 1);
            assertThat(h.type().isResponse()).isTrue();
            assertThat(h.hasSequence()).isTrue();
            assertThat(h.sequence()).isEqualTo(v == 2 ? 0xABCDEF : 0xBEEF);
            assertThat(h.messageLength()).isEqualTo(echo[v].readableBytes());
            assertThat(h.iesOffset()).isEqualTo(headerLength[v]);
            assertThat(h.endOffset()).isEqualTo(echo[v].readableBytes());
            assertThat(h.trailingBytes()).isZero();
        }
    }

    @Test
    void offsetsAreAbsoluteInsideALargerBuffer() {
        ByteBuf b = Unpooled.buffer();
        b.writeZero(5);
        GtpEchoEncoder.writeV2(b, 0x010203, 9);
        b.writeZero(3);
        assertThat(v2.wrap(b, 5, GtpEchoEncoder.V2_LENGTH + 3)).isTrue();
        assertThat(v2.iesOffset()).isEqualTo(5 + 8);
        assertThat(v2.endOffset()).isEqualTo(5 + GtpEchoEncoder.V2_LENGTH);
        assertThat(v2.trailingBytes()).isEqualTo(3);
        assertThat(v2.sequence()).isEqualTo(0x010203);
    }

    @Test
    void checksRunInTheSharedOrder() {
        for (GtpHeader h : all) {
            assertThat(h.wrap(Unpooled.EMPTY_BUFFER)).isFalse();
            assertThat(h.reason()).isSameAs(GtpDrops.TRUNCATED_HEADER);
            // version before the header length: one octet of version 3 is not "truncated"
            assertThat(h.wrap(buf(hex("60")))).isFalse();
            assertThat(h.reason()).isSameAs(GtpDrops.UNSUPPORTED_VERSION);
        }
        // header length before PT: 7 octets of GTP' are truncated, 8 are GTP' whatever the length says
        assertThat(v1.wrap(buf(hex("20010000 000000")))).isFalse();
        assertThat(v1.reason()).isSameAs(GtpDrops.TRUNCATED_HEADER);
        assertThat(v1.wrap(buf(hex("2001ffff 00000000")))).isFalse();
        assertThat(v1.reason()).isSameAs(GtpDrops.GTP_PRIME);
        // v2: T makes the header 12 octets, and the length must then cover 8 of them
        assertThat(v2.wrap(buf(hex("48010004 00000000")))).isFalse();
        assertThat(v2.reason()).isSameAs(GtpDrops.TRUNCATED_HEADER);
        assertThat(v2.wrap(buf(hex("48010004 00000000 00000000")))).isFalse();
        assertThat(v2.reason()).isSameAs(GtpDrops.LENGTH_TOO_SHORT);
        assertThat(v2.wrap(buf(hex("48010009 00000000 00000000")))).isFalse();
        assertThat(v2.reason()).isSameAs(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        // a later good wrap forgets the reason
        assertThat(v2.wrap(buf(hex("48010008 00000000 00000000")))).isTrue();
        assertThat(v2.reason()).isNull();
    }

    @Test
    void sequenceFollowsTheLayout() {
        byte[] noS = hex("30010002 00000001 0e05");
        assertThat(v1.wrap(buf(noS))).isTrue();
        assertThat(v1.hasSequence()).isFalse();
        assertThat(v1.sequence()).isEqualTo(-1);
        assertThat(v1.setSequence(7)).isFalse();
        assertThat(noS).isEqualTo(hex("30010002 00000001 0e05"));

        // v2: the TEID moves the sequence from octet 4 to 8; writes keep 24 bits
        byte[] withTeid = hex("48010008 11111111 00000100");
        assertThat(v2.wrap(buf(withTeid))).isTrue();
        v2.setSequence(0x7F123456);
        assertThat(withTeid).isEqualTo(hex("48010008 11111111 12345600"));
        byte[] noTeid = hex("40010004 00000100");
        assertThat(v2.wrap(buf(noTeid))).isTrue();
        v2.setSequence(0x123456);
        assertThat(noTeid).isEqualTo(hex("40010004 12345600"));
    }
}
