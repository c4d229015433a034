package io.mclb.gtp.v0;

import static io.mclb.gtp.GtpTestMessages.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.Tbcd;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Vectors: sgsnemu --gtpversion 0 layout (peers.md section 7), see {@link GtpTestMessages#v0CreateRequest()}. */
class GtpV0MessageTest {
    private final GtpV0Message m = new GtpV0Message();

    @Test
    void decodesOsmoCreateRequestAndItsTid() {
        assertThat(m.wrap(buf(GtpTestMessages.v0CreateRequest()))).isTrue();
        assertThat(m.version()).isZero();
        assertThat(m.protocolType()).isEqualTo(1);
        assertThat(m.flags()).isEqualTo(0x1E);
        assertThat(m.messageType()).isEqualTo(16);
        assertThat(m.sequence()).isEqualTo(7);
        assertThat(m.flowLabel()).isZero();
        assertThat(m.sndcpNpduNumber()).isEqualTo(0xFF);
        // tshark printed gtp.tid = 2000000000102026 for sgsnemu --imsi 262010000000002
        assertThat(m.tid()).isEqualTo(0x0200000000010262L);
        assertThat(Tbcd.toString(m.tidImsi(TidLayout.OSMO_GGSN))).isEqualTo("262010000000002");
        assertThat(m.tidNsapi(TidLayout.OSMO_GGSN)).isZero();
        assertThat(m.tidImsiRaw(TidLayout.OSMO_GGSN)).isEqualTo(Tbcd.encodeRaw("262010000000002"));
        assertThat(m.ies().teidControl(true)).isEqualTo(1);
        assertThat(m.ies().teidDataI(true)).isEqualTo(1);
        assertThat(m.ies().apnEquals(GtpTestMessages.APN_INTERNET)).isTrue();
        assertThat(m.ies().gsnAddressIpv4(0)).isEqualTo(0x7f00000b);
        assertThat(m.ies().hasImsi()).isFalse();
    }

    @Test
    void gsm0960LayoutPutsNsapiInTheLastNibble() {
        byte[] b = GtpTestMessages.v0CreateRequest();
        // TBCD IMSI 262010000000002 in order, NSAPI 5 in the high nibble of the last octet
        System.arraycopy(GtpTestMessages.hex("6202010000000052"), 0, b, 12, 8);
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(m.tidNsapi(TidLayout.GSM_09_60)).isEqualTo(5);
        assertThat(Tbcd.toString(m.tidImsi(TidLayout.GSM_09_60))).isEqualTo("262010000000002");
        assertThat(m.tidImsiRaw(TidLayout.GSM_09_60)).isEqualTo(Tbcd.encodeRaw("262010000000002"));
    }

    @Test
    void nonBcdTid() {
        byte[] b = GtpTestMessages.v0CreateRequest();
        b[13] = (byte) 0xB0;
        assertThat(m.wrap(buf(b))).isTrue();
        assertThat(GtpDrops.forImsi(m.tidImsi(TidLayout.GSM_09_60))).isSameAs(GtpDrops.IMSI_NOT_BCD);
    }

    @Test
    void everyTruncationIsRefused() {
        byte[] full = GtpTestMessages.v0CreateRequest();
        for (int n = 0; n < full.length; n++) {
            assertThat(m.wrap(buf(Arrays.copyOf(full, n)))).as("length %d", n).isFalse();
            assertThat(m.reason()).isIn(GtpDrops.TRUNCATED_HEADER, GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
    }

    @Test
    void v0TvLengthsDifferFromV1() {
        // 16/17 are 2-octet flow labels in v0: parsing this as v1 would misalign
        assertThat(m.wrap(buf(GtpTestMessages.v0CreateRequest()))).isTrue();
        assertThat(m.ies().ieCount()).isEqualTo(10);
    }

    @Test
    void wrongVersionAndGtpPrime() {
        assertThat(m.wrap(buf(GtpTestMessages.v1CreateRequest()))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.UNSUPPORTED_VERSION);
        byte[] b = GtpTestMessages.v0CreateRequest();
        b[0] = 0x0E;
        assertThat(m.wrap(buf(b))).isFalse();
        assertThat(m.reason()).isSameAs(GtpDrops.GTP_PRIME);
    }

    @Test
    void sequenceAndFlowLabelPatchInPlace() {
        byte[] b = GtpTestMessages.v0CreateRequest();
        ByteBuf buf = buf(b);
        assertThat(m.wrap(buf)).isTrue();
        m.setSequence(0xFFFE);
        m.setFlowLabel(0x4242);
        GtpV0Message again = new GtpV0Message();
        assertThat(again.wrap(buf)).isTrue();
        assertThat(again.sequence()).isEqualTo(0xFFFE);
        assertThat(again.flowLabel()).isEqualTo(0x4242);
        again.setSequence(7);
        again.setFlowLabel(0);
        assertThat(b).isEqualTo(GtpTestMessages.v0CreateRequest());
    }
}
