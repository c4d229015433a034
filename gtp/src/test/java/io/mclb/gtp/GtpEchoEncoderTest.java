package io.mclb.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class GtpEchoEncoderTest {
    @Test
    void v1EchoResponseMatchesOsmoLayoutAndDecodes() {
        ByteBuf out = Unpooled.buffer();
        assertThat(GtpEchoEncoder.writeV1(out, 0x0102, 7)).isEqualTo(out.readableBytes());
        // osmo-ggsn gtp_echo_resp: 0x32, type 2, TEID 0, S=1, Recovery TV
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("3202000600000000010200000e07");
        GtpV1Message m = new GtpV1Message();
        assertThat(m.wrap(out)).isTrue();
        assertThat(m.sequence()).isEqualTo(0x0102);
        assertThat(m.ies().recovery()).isEqualTo(7);
        assertThat(m.type().isResponse()).isTrue();
    }

    @Test
    void v0EchoResponseDecodes() {
        ByteBuf out = Unpooled.buffer();
        assertThat(GtpEchoEncoder.writeV0(out, 0xFFFF, 200)).isEqualTo(GtpEchoEncoder.V0_LENGTH).isEqualTo(out.readableBytes());
        GtpV0Message m = new GtpV0Message();
        assertThat(m.wrap(out)).isTrue();
        assertThat(m.flags()).isEqualTo(0x1E);
        assertThat(m.messageType()).isEqualTo(2);
        assertThat(m.sequence()).isEqualTo(0xFFFF);
        assertThat(m.ies().recovery()).isEqualTo(200);
    }

    @Test
    void v2EchoResponseDecodes() {
        ByteBuf out = Unpooled.buffer();
        assertThat(GtpEchoEncoder.writeV2(out, 0x123456, 3)).isEqualTo(GtpEchoEncoder.V2_LENGTH).isEqualTo(out.readableBytes());
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("400200091234560003000100" + "03");
        GtpV2Message m = new GtpV2Message();
        assertThat(m.wrap(out)).isTrue();
        assertThat(m.hasTeid()).isFalse();
        assertThat(m.sequence()).isEqualTo(0x123456);
        assertThat(m.recovery()).isEqualTo(3);
    }
}
