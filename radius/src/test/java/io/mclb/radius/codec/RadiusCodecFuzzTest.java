package io.mclb.radius.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.net.DropReason;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the RADIUS codec as the proxy uses it; seeds in fuzz/radius/. {@link RadiusPacket#wrap}
 * refuses with a reason or accepts; an accepted packet's accessors stay inside the datagram. The
 * input is then signed as its sender would sign it (a NAS for requests, a real for responses), so
 * the fuzzer reaches the re-signing code instead of stopping at authenticators: a packet the
 * proxy verifies is re-signed for the other side into a packet that still frames, that the other
 * side verifies with its own secret, and that re-signed back is the signed packet octet for octet
 * (the hidden-attribute re-encryption and the Message-Authenticator read and write exactly their
 * own octets). A refusal after wrap is one of the documented reasons.
 */
@Tag("fuzz")
class RadiusCodecFuzzTest {
    private static final RadiusSecret NAS = RadiusSecret.ofString("nas-secret");
    private static final RadiusSecret REAL = RadiusSecret.ofString("a longer secret of the AAA real, over 16");
    private static final byte[] UPSTREAM_AUTH = filled(0x3C);
    private static final byte[] NAS_AUTH = filled(0xC3);

    private final RadiusPacket p = new RadiusPacket();
    private final RadiusCrypto crypto = new RadiusCrypto(new byte[32]);
    private final byte[] saved = new byte[16];
    private final byte[] scratch = new byte[16];

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("radius");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void wrapVerifyReSign(byte[] datagram) {
        ByteBuf buf = FuzzCorpus.datagram(datagram);
        if (p.wrap(buf) != null) {
            return;
        }
        long sink = p.framedIpAddress() + p.acctStatusType() + p.callingStationId() + p.userName() + p.tgppImsi()
            + p.findVendorAttribute(RadiusAttributes.VENDOR_CISCO, RadiusAttributes.CISCO_AVPAIR)
            + p.findVendorAttribute(RadiusAttributes.VENDOR_WIMAX, 1) + p.identifier();
        for (int a = p.firstAttributeIndex(); a >= 0; a = p.nextAttributeIndex(a)) {
            sink += p.attributeType(a) + p.valueLength(a);
        }
        assertThat(sink).isNotNull();
        int code = p.code();
        if (RadiusCodes.isRequest(code)) {
            request(buf, code);
        } else if (RadiusCodes.isResponse(code)) {
            response(buf, code);
        }
    }

    private void request(ByteBuf buf, int code) {
        boolean random = RadiusCodes.hasRandomAuthenticator(code);
        crypto.signMessageAuthenticator(p, NAS, code, null);
        if (!random) {
            crypto.signAccountingRequest(p, NAS);
        }
        DropReason bad = crypto.verifyRequest(p, NAS);
        if (bad != null) {
            assertThat(bad).isIn(RadiusDrops.BAD_HIDDEN_ATTRIBUTE, RadiusDrops.MISSING_MESSAGE_AUTHENTICATOR);
            return;
        }
        p.trimPadding();
        byte[] signed = ByteBufUtil.getBytes(buf);
        int id = p.identifier();
        crypto.reSignVerifiedRequest(p, NAS, REAL, id ^ 0x5A, saved, null);
        assertThat(p.wrap(buf)).as("re-signed request still frames").isNull();
        assertThat(crypto.verifyRequest(p, REAL)).as("the real verifies what it gets").isNull();
        crypto.reSignVerifiedRequest(p, REAL, NAS, id, scratch, saved);
        assertThat(ByteBufUtil.getBytes(buf)).as("re-signed back").isEqualTo(signed);
    }

    private void response(ByteBuf buf, int code) {
        int requestCode = switch (code) {
            case RadiusCodes.ACCOUNTING_RESPONSE -> RadiusCodes.ACCOUNTING_REQUEST;
            case RadiusCodes.DISCONNECT_ACK, RadiusCodes.DISCONNECT_NAK -> RadiusCodes.DISCONNECT_REQUEST;
            case RadiusCodes.COA_ACK, RadiusCodes.COA_NAK -> RadiusCodes.COA_REQUEST;
            default -> RadiusCodes.ACCESS_REQUEST;
        };
        crypto.signMessageAuthenticator(p, REAL, requestCode, UPSTREAM_AUTH);
        crypto.signResponse(p, UPSTREAM_AUTH, REAL);
        DropReason bad = crypto.verifyResponse(p, requestCode, REAL, UPSTREAM_AUTH);
        if (bad != null) {
            // an EAP-Message without Message-Authenticator is refused in answers too (RFC 3579 3.2)
            assertThat(bad).isIn(RadiusDrops.BAD_HIDDEN_ATTRIBUTE, RadiusDrops.MISSING_MESSAGE_AUTHENTICATOR);
            return;
        }
        p.trimPadding();
        byte[] signed = ByteBufUtil.getBytes(buf);
        int id = p.identifier();
        crypto.reSignVerifiedResponse(p, requestCode, REAL, UPSTREAM_AUTH, NAS, NAS_AUTH, id ^ 0xA5);
        assertThat(p.wrap(buf)).as("re-signed response still frames").isNull();
        assertThat(crypto.verifyResponse(p, requestCode, NAS, NAS_AUTH)).as("the NAS verifies what it gets").isNull();
        crypto.reSignVerifiedResponse(p, requestCode, NAS, NAS_AUTH, REAL, UPSTREAM_AUTH, id);
        assertThat(ByteBufUtil.getBytes(buf)).as("re-signed back").isEqualTo(signed);
    }

    private static byte[] filled(int v) {
        byte[] b = new byte[16];
        java.util.Arrays.fill(b, (byte) v);
        return b;
    }
}
