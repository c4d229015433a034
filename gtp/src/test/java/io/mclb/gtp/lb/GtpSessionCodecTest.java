package io.mclb.gtp.lb;

import io.mclb.binding.BindingCodec;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The GTP session's part of a replicated binding: the GGSN signalling address, and nothing that does not decode. */
class GtpSessionCodecTest {
    private final RealServer ggsn = new RealServer("GGSN-FARM", RealConfigs.real("10.0.0.21", 8), new ManualClock(), null);

    private static BindingCodec.Fields fields(RealServer real) {
        return new BindingCodec.Fields(0x2620100000000001L, 5, real, 0xDEADBEEFL, 1_000, 7_200_000_000_000L);
    }

    @Test
    void theGgsnAddressAndTheCommonFieldsComeBackAsTheyWent() {
        GtpSession s = new GtpSession(0x2620100000000001L, 5, ggsn, 0xDEADBEEF, new byte[] {10, 0, 0, 21}, 0,
                7_200_000_000_000L);
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(s, out);
        assertThat(out.readableBytes()).isEqualTo(5);
        GtpSession back = GtpSessionCodec.INSTANCE.read(fields(ggsn), out);
        assertThat(back.anchored()).isFalse();
        assertThat(back.imsiRaw()).isEqualTo(s.imsiRaw());
        assertThat(back.nsapi()).isEqualTo(5);
        assertThat(back.teid()).as("the TEID follow-ups are routed by").isEqualTo(0xDEADBEEF);
        assertThat(back.real()).isSameAs(ggsn);
        assertThat(back.ggsnAddress()).containsExactly(10, 0, 0, 21);
        assertThat(back.idleNs()).isEqualTo(7_200_000_000_000L);
    }

    @Test
    void aV2SessionStaysAV2SessionOnTheStandby() {
        // the alias carries the version: a v1 request with the same TEID must not find it there
        GtpSession s = new GtpSession(0x2620100000000001L, 5, ggsn, GtpSession.alias(2, 0xDEADBEEF), 0xDEADBEEF, false,
                new byte[] {10, 0, 0, 21}, 0, 7_200_000_000_000L);
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(s, out);
        GtpSession back = GtpSessionCodec.INSTANCE.read(new BindingCodec.Fields(s.owner(), 5, ggsn, s.alias(), 1_000,
                7_200_000_000_000L), out);
        assertThat(back.version()).isEqualTo(2);
        assertThat(back.alias()).isEqualTo(GtpSession.alias(2, 0xDEADBEEF)).isNotEqualTo(GtpSession.alias(1, 0xDEADBEEF));
        assertThat(back.teid()).isEqualTo(0xDEADBEEF);
        assertThat(back.ggsnTeid()).isEqualTo(0xDEADBEEF);
    }

    @Test
    void aSessionAnchoredOnTheVipKeepsTheGgsnsOwnTeidOnTheStandby() {
        // gtp signalling vip: the alias is mclb's TEID; follow-ups must reach the GGSN with its own
        GtpSession s = new GtpSession(0x2620100000000001L, 5, ggsn, 0xDEADBEEF, 0x00000007, true,
                new byte[] {10, 0, 0, 21}, 0, 7_200_000_000_000L);
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(s, out);
        GtpSession back = GtpSessionCodec.INSTANCE.read(fields(ggsn), out);
        assertThat(back.anchored()).isTrue();
        assertThat(back.teid()).as("mclb's TEID, which the SGSN sends").isEqualTo(0xDEADBEEF);
        assertThat(back.ggsnTeid()).as("the GGSN's own").isEqualTo(7);
        assertThat(back.ggsnAddress()).containsExactly(10, 0, 0, 21);
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 7, 2})))
                .as("unknown flags").isNull();
    }

    @Test
    void theSgsnSideOfAnAnchoredSessionTravelsSoTheStandbyRelaysGgsnRequests() throws Exception {
        // GGSN-initiated requests: after a takeover they must still reach the SGSN with its own TEID
        java.net.InetSocketAddress sgsn = new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.1.2.3"), 2123);
        GtpSession s = new GtpSession(0x2620100000000001L, 5, ggsn, 0xDEADBEEF, 7, true,
                new byte[] {10, 0, 0, 21}, 0x00ABCDEF, sgsn, 0, 7_200_000_000_000L);
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(s, out);
        assertThat(out.readableBytes()).isEqualTo(5 + 5 + 4 + 1 + 4);
        GtpSession back = GtpSessionCodec.INSTANCE.read(fields(ggsn), out);
        assertThat(back.anchored()).isTrue();
        assertThat(back.ggsnTeid()).isEqualTo(7);
        assertThat(back.sgsnAnchored()).isTrue();
        assertThat(back.sgsnTeid()).as("the SGSN's own TEID").isEqualTo(0x00ABCDEF);
        assertThat(back.sgsnSignalling()).as("where GGSN requests go").isEqualTo(sgsn);

        ByteBuf v6 = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(new GtpSession(1, 5, ggsn, 9, 8, true, null, 3,
                new java.net.InetSocketAddress(java.net.InetAddress.getByName("2001:db8::7"), 2123), 0, 1), v6);
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), v6).sgsnSignalling().getAddress().getHostAddress())
                .isEqualTo("2001:db8:0:0:0:0:0:7");
        // a 5-octet SGSN address, or one cut short, is refused rather than guessed
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn),
                Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 7, 3, 0, 0, 0, 1, 5, 1, 2, 3, 4, 5}))).isNull();
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn),
                Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 7, 3, 0, 0, 0, 1, 4, 1, 2}))).isNull();
    }

    @Test
    void aV0SessionsSgsnSideKeepsPort3386OnTheStandby() throws Exception {
        // GSM 09.60: the GGSN's v0 requests go to the SGSN's port 3386; a standby must not send them to 2123
        java.net.InetSocketAddress sgsn = new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.1.2.3"), 3386);
        GtpSession s = new GtpSession(0x2620100000000001L, 0, ggsn, 0x1234, 0, true, new byte[] {10, 0, 0, 21}, 0, sgsn,
                0, 7_200_000_000_000L);
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(s, out);
        assertThat((int) out.getUnsignedByte(5 + 4)).as("flags: anchored, SGSN side, v0").isEqualTo(7);
        GtpSession back = GtpSessionCodec.INSTANCE.read(fields(ggsn), out);
        assertThat(back.sgsnAnchored()).isTrue();
        assertThat(back.sgsnSignalling()).isEqualTo(sgsn);
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn),
                Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 7, 5, 0, 0, 0, 1, 4, 1, 2, 3, 4})))
                .as("v0 without the SGSN side: unknown flags").isNull();
    }

    @Test
    void aStandbyTakesTheNewSgsnSideWhenTheActiveResendsAMovedSession() throws Exception {
        java.net.InetSocketAddress first = new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.1.2.3"), 2123);
        java.net.InetSocketAddress second = new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.1.2.4"), 2123);
        io.mclb.binding.BindingTable<GtpSession> standby = new io.mclb.binding.BindingTable<>(GtpSession.KIND);
        standby.openReplicated(new GtpSession(9, 5, ggsn, 0x99, 7, true, null, 1, first, 0, 1_000), 0, 1_000);
        standby.openReplicated(new GtpSession(9, 5, ggsn, 0x99, 7, true, null, 1, first, 0, 1_000), 10, 1_000);
        assertThat(standby.get(9, 5).sgsnSignalling()).isEqualTo(first);
        standby.openReplicated(new GtpSession(9, 5, ggsn, 0x99, 7, true, null, 2, second, 0, 1_000), 20, 1_000);
        assertThat(standby.get(9, 5).sgsnSignalling()).as("the moved SGSN side replaces the copy").isEqualTo(second);
        assertThat(standby.get(9, 5).sgsnTeid()).isEqualTo(2);
        assertThat(ggsn.activeConnections()).as("still one connection held").isEqualTo(1);
    }

    @Test
    void aSessionWithoutALearntAddressAndAnIpv6OneBothTravel() {
        ByteBuf out = Unpooled.buffer();
        GtpSessionCodec.INSTANCE.writeExtra(new GtpSession(1, 0, ggsn, 7, null, 0, 1), out);
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), out).ggsnAddress()).isNull();
        byte[] v6 = new byte[16];
        v6[15] = 1;
        out.clear();
        GtpSessionCodec.INSTANCE.writeExtra(new GtpSession(1, 0, ggsn, 7, v6, 0, 1), out);
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), out).ggsnAddress()).containsExactly(v6);
    }

    @Test
    void extraBytesThatDoNotDecodeAreRefusedNotGuessed() {
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), Unpooled.buffer())).as("empty").isNull();
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), Unpooled.wrappedBuffer(new byte[] {4, 10, 0, 0})))
                .as("address cut short").isNull();
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), Unpooled.wrappedBuffer(new byte[] {5, 1, 2, 3, 4, 5})))
                .as("no address is 5 octets").isNull();
        assertThat(GtpSessionCodec.INSTANCE.read(fields(ggsn), Unpooled.wrappedBuffer(new byte[] {0, 9})))
                .as("trailing bytes").isNull();
    }

    @Test
    void theGtpModuleDeclaresTheCodecOnItsKind() {
        new GtpServiceModule();
        assertThat(GtpSession.KIND.codec()).isSameAs(GtpSessionCodec.INSTANCE);
    }
}
