package io.mclb.radius.lb;

import io.mclb.farm.RealState;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Probe judgement and packets without I/O, then Status-Server and Access-Request probes against fake AAAs. */
class RadiusProbeTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final RadiusSecret SECRET = RadiusSecret.ofString("aaa-secret");

    /** A response to {@code probe} signed with {@code secret}, as an AAA would send it. */
    private static ByteBuf answer(ProbePackets.Probe probe, int code, int id, RadiusSecret secret) {
        ByteBuf b = Unpooled.buffer(20);
        b.writeByte(code).writeByte(id).writeShort(20).writeZero(16);
        RadiusPacket p = new RadiusPacket();
        p.wrap(b);
        new RadiusCrypto().signResponse(p, probe.authenticator(), secret);
        return b;
    }

    @Test
    void probePacketsCarryAVerifiableMessageAuthenticatorAndAnswersAreChecked() {
        ProbePackets packets = new ProbePackets();
        ProbeSettings ss = new ProbeSettings(null, null);
        ProbePackets.Probe probe = packets.build(ss, SECRET, 9);
        RadiusPacket p = new RadiusPacket();
        assertThat(p.wrap(Unpooled.wrappedBuffer(probe.wire()))).isNull();
        assertThat(p.code()).isEqualTo(RadiusCodes.STATUS_SERVER);
        assertThat(new RadiusCrypto().verifyRequest(p, SECRET)).isNull();
        assertThat(packets.accepts(probe, answer(probe, RadiusCodes.ACCESS_ACCEPT, 9, SECRET), SECRET)).isTrue();
        assertThat(packets.accepts(probe, answer(probe, RadiusCodes.ACCESS_ACCEPT, 8, SECRET), SECRET)).isFalse();
        assertThat(packets.accepts(probe, answer(probe, RadiusCodes.ACCESS_ACCEPT, 9,
                RadiusSecret.ofString("other")), SECRET)).isFalse();

        ProbeSettings ar = new ProbeSettings("probe", RadiusSecret.ofString("pw"));
        ProbePackets.Probe access = packets.build(ar, SECRET, 10);
        assertThat(packets.accepts(access, answer(access, RadiusCodes.ACCESS_REJECT, 10, SECRET), SECRET)).isTrue();
        assertThat(packets.accepts(access, answer(access, RadiusCodes.ACCOUNTING_RESPONSE, 10, SECRET), SECRET))
                .isFalse();
    }

    private static String probed(String probeBody) {
        return RadiusHarness.issueConfig("ip slb probe AAA-PROBE radius\n interval 1\n faildetect 2\n timeout 1\n"
                + probeBody, "", "").replace("ip slb serverfarm AAA-FARM\n", "ip slb serverfarm AAA-FARM\n probe AAA-PROBE\n");
    }

    @Test
    void statusServerProbeFailsASilentAaaAndRecoversIt() throws Exception {
        h = new RadiusHarness(dataDir, probed(" status-server\n"));
        await().atMost(WAIT).until(() -> h.auth.get("AUTH5").count() >= 1);
        h.auth.get("AUTH5").mode = FakeAaa.Mode.SILENT;
        await().atMost(WAIT).until(() -> h.real("AAA-FARM", "127.0.0.5").state() == RealState.PROBE_FAILED);
        assertThat(h.real("AAA-FARM", "127.0.0.6").state()).isNotEqualTo(RealState.PROBE_FAILED);
        h.auth.get("AUTH5").mode = FakeAaa.Mode.ANSWER;
        await().atMost(WAIT).until(() -> h.real("AAA-FARM", "127.0.0.5").state() != RealState.PROBE_FAILED);
        assertThat(h.auth.get("AUTH5").undecodable()).isEmpty();
    }

    @Test
    void accessRequestProbeFailsAnAaaThatCannotVerifyIt() throws Exception {
        h = new RadiusHarness(dataDir, probed(" access-request user probe password 0 probe-pw\n"));
        await().atMost(WAIT).until(() -> h.auth.get("AUTH6").count() >= 1);
        assertThat(h.auth.get("AUTH6").seen().get(0).password()).isEqualTo("probe-pw");
        h.auth.get("AUTH6").mode = FakeAaa.Mode.BAD_AUTHENTICATOR;
        await().atMost(WAIT).until(() -> h.real("AAA-FARM", "127.0.0.6").state() == RealState.PROBE_FAILED);
    }
}
