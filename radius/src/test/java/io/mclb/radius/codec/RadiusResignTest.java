package io.mclb.radius.codec;

import static io.mclb.radius.codec.RadiusTestPackets.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;

/** Packets from TinyRadius signed with secret A, re-signed by mclb for secret B, checked by TinyRadius / javax. */
class RadiusResignTest {
    private final RadiusSecret a = RadiusSecret.ofString(SECRET_A);
    private final RadiusSecret b = RadiusSecret.ofString(SECRET_B);
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket p = new RadiusPacket();
    private final byte[] original = new byte[16];

    private static byte[] bytes(ByteBuf buf) {
        return ByteBufUtil.getBytes(buf, buf.readerIndex(), buf.readableBytes());
    }

    private static org.tinyradius.packet.RadiusPacket decodeRequest(byte[] wire, String secret) throws Exception {
        return org.tinyradius.packet.RadiusPacket.decodeRequestPacket(Dictionaries.standard(),
                new ByteArrayInputStream(wire), secret);
    }

    @Test
    void accessRequestPasswordIsReHiddenForTheReal() throws Exception {
        AccessRequest nas = accessRequest("alice", "s3cret-password-of-20", false);
        byte[] wire = encodeRequest(nas, SECRET_A);
        ByteBuf buf = Unpooled.wrappedBuffer(wire);
        assertThat(p.wrap(buf)).isNull();

        assertThat(crypto.reSignRequest(p, a, b, 200, original)).isNull();

        assertThat(original).isEqualTo(nas.getAuthenticator());
        byte[] out = bytes(buf);
        assertThat(authenticator(out)).isNotEqualTo(nas.getAuthenticator());
        AccessRequest real = (AccessRequest) decodeRequest(out, SECRET_B);
        assertThat(real.getPacketIdentifier()).isEqualTo(200);
        assertThat(real.getUserPassword()).isEqualTo("s3cret-password-of-20");
        assertThat(real.getAttributeValue("Calling-Station-Id")).isEqualTo("491701234567");
        AccessRequest wrongSecret = (AccessRequest) decodeRequest(out, SECRET_A);
        assertThat(wrongSecret.getUserPassword()).isNotEqualTo("s3cret-password-of-20");
    }

    @Test
    void accessRequestWithMessageAuthenticatorIsReSigned() throws Exception {
        byte[] wire = encodeRequest(accessRequest("bob", "pw", true), SECRET_A);
        signMa(wire, null, SECRET_A);
        ByteBuf buf = Unpooled.wrappedBuffer(wire);
        assertThat(p.wrap(buf)).isNull();
        assertThat(crypto.verifyMessageAuthenticator(p, a, RadiusCodes.ACCESS_REQUEST, null)).isTrue();
        assertThat(crypto.verifyMessageAuthenticator(p, b, RadiusCodes.ACCESS_REQUEST, null)).isFalse();

        assertThat(crypto.reSignRequest(p, a, b, 3, original)).isNull();

        byte[] out = bytes(buf);
        assertThat(maValue(out)).isEqualTo(independentMa(out, null, SECRET_B));
        assertThat(((AccessRequest) decodeRequest(out, SECRET_B)).getUserPassword()).isEqualTo("pw");
    }

    @Test
    void accountingStartIsReSignedAndTinyRadiusVerifiesIt() throws Exception {
        AccountingRequest nas = accountingStart();
        byte[] wire = encodeRequest(nas, SECRET_A);
        ByteBuf buf = Unpooled.wrappedBuffer(wire);
        assertThat(p.wrap(buf)).isNull();
        assertThat(crypto.verifyAccountingRequest(p, a)).isTrue();
        assertThat(crypto.verifyAccountingRequest(p, b)).isFalse();
        assertThat(p.acctStatusType()).isEqualTo(RadiusAttributes.ACCT_STATUS_START);
        assertThat(p.framedIpAddress()).isEqualTo((10 << 24) | (20 << 16) | (30 << 8) | 40);
        int imsi = p.tgppImsi();
        assertThat(buf.toString(RadiusPacket.valueIndex(imsi), p.valueLength(imsi), StandardCharsets.US_ASCII))
                .isEqualTo("262010000000001");
        int user = p.userName();
        assertThat(buf.toString(RadiusPacket.valueIndex(user), p.valueLength(user), StandardCharsets.US_ASCII))
                .isEqualTo("alice@apn");

        assertThat(crypto.reSignRequest(p, a, b, 9, original)).isNull();

        AccountingRequest real = (AccountingRequest) decodeRequest(bytes(buf), SECRET_B);
        assertThat(real.getPacketIdentifier()).isEqualTo(9);
        assertThat(real.getAcctStatusType()).isEqualTo(1);
        assertThat(real.getAttributeValue("Framed-IP-Address")).isEqualTo("10.20.30.40");
        assertThat(real.getVendorAttribute(10415).getSubAttributeValue("3GPP-IMSI")).isEqualTo("262010000000001");
    }

    @Test
    void accountingRequestWithWrongSecretIsRefusedAndUntouched() {
        byte[] wire = encodeRequest(accountingStart(), SECRET_A);
        byte[] before = wire.clone();
        assertThat(p.wrap(Unpooled.wrappedBuffer(wire))).isNull();
        assertThat(crypto.reSignRequest(p, b, a, 1, original)).isEqualTo(RadiusDrops.BAD_AUTHENTICATOR);
        assertThat(wire).isEqualTo(before);
    }

    @Test
    void statusServerMessageAuthenticatorIsRecomputed() {
        byte[] wire = statusServer(SECRET_A);
        ByteBuf buf = Unpooled.wrappedBuffer(wire);
        assertThat(p.wrap(buf)).isNull();
        assertThat(crypto.reSignRequest(p, a, b, 17, original)).isNull();
        byte[] out = bytes(buf);
        assertThat(out[1] & 0xff).isEqualTo(17);
        assertThat(maValue(out)).isEqualTo(independentMa(out, null, SECRET_B));
        assertThat(authenticator(out)).isNotEqualTo(original);
    }

    @Test
    void statusServerWithBadOrMissingMessageAuthenticatorIsRefused() {
        byte[] wire = statusServer(SECRET_A);
        assertThat(p.wrap(Unpooled.wrappedBuffer(wire))).isNull();
        assertThat(crypto.reSignRequest(p, b, a, 1, original)).isEqualTo(RadiusDrops.BAD_MESSAGE_AUTHENTICATOR);

        org.tinyradius.packet.RadiusPacket bare = new org.tinyradius.packet.RadiusPacket(12, 1);
        assertThat(p.wrap(Unpooled.wrappedBuffer(encodeRequest(bare, SECRET_A)))).isNull();
        assertThat(crypto.reSignRequest(p, a, b, 1, original)).isEqualTo(RadiusDrops.MISSING_MESSAGE_AUTHENTICATOR);
    }

    @Test
    void accessAcceptFromTheRealIsReSignedForTheNas() throws Exception {
        AccessRequest nas = accessRequest("carol", "pw-carol", true);
        byte[] nasWire = encodeRequest(nas, SECRET_A);
        signMa(nasWire, null, SECRET_A);
        ByteBuf req = Unpooled.wrappedBuffer(nasWire.clone());
        assertThat(p.wrap(req)).isNull();
        assertThat(crypto.reSignRequest(p, a, b, 77, original)).isNull();
        byte[] upstreamAuth = new byte[16];
        p.authenticator(upstreamAuth);
        org.tinyradius.packet.RadiusPacket atReal = decodeRequest(bytes(req), SECRET_B);

        // The real answers with secret B: Tunnel-Password salted with the upstream authenticator + MA.
        byte[] salt = {(byte) 0x85, 0x21};
        byte[] tunnelPw = "tunnel-pass".getBytes(StandardCharsets.US_ASCII);
        byte[] cipher = saltEncrypt(tunnelPw, salt, upstreamAuth, SECRET_B);
        byte[] tpValue = new byte[3 + cipher.length];
        tpValue[0] = 1;
        System.arraycopy(salt, 0, tpValue, 1, 2);
        System.arraycopy(cipher, 0, tpValue, 3, cipher.length);
        org.tinyradius.packet.RadiusPacket accept = new org.tinyradius.packet.RadiusPacket(2, 77);
        accept.setDictionary(Dictionaries.standard());
        accept.addAttribute("Reply-Message", "welcome");
        accept.addAttribute(new RadiusAttribute(69, tpValue));
        accept.addAttribute(new RadiusAttribute(80, new byte[16]));
        // TinyRadius cannot sign MA: compute it (request authenticator in the field), then the Response Authenticator.
        byte[] acceptWire = encodeResponse(accept, SECRET_B, atReal);
        signMa(acceptWire, upstreamAuth, SECRET_B);
        ByteBuf resp = Unpooled.wrappedBuffer(acceptWire);
        assertThat(p.wrap(resp)).isNull();
        crypto.signResponse(p, upstreamAuth, b);
        assertThat(crypto.verifyResponse(p, upstreamAuth, b)).isTrue();

        assertThat(crypto.reSignResponse(p, RadiusCodes.ACCESS_REQUEST, b, upstreamAuth, a, original, 7)).isNull();

        byte[] out = bytes(resp);
        org.tinyradius.packet.RadiusPacket atNas = org.tinyradius.packet.RadiusPacket.decodeResponsePacket(
                Dictionaries.standard(), new ByteArrayInputStream(out), SECRET_A, nas);
        assertThat(atNas.getPacketIdentifier()).isEqualTo(7);
        assertThat(atNas.getAttributeValue("Reply-Message")).isEqualTo("welcome");
        assertThat(maValue(out)).isEqualTo(independentMa(out, original, SECRET_A));
        byte[] tp = atNas.getAttribute(69).getAttributeData();
        assertThat(tp[0]).isEqualTo((byte) 1);
        assertThat(saltDecrypt(Arrays.copyOfRange(tp, 3, tp.length), salt, original, SECRET_A)).isEqualTo(tunnelPw);
    }

    @Test
    void forgedResponseIsRefusedAndUntouched() {
        AccountingRequest nas = accountingStart();
        byte[] nasWire = encodeRequest(nas, SECRET_A);
        org.tinyradius.packet.RadiusPacket resp = new org.tinyradius.packet.RadiusPacket(5, 42);
        byte[] respWire = encodeResponse(resp, SECRET_A, nas); // signed with the wrong (NAS) secret
        byte[] before = respWire.clone();
        assertThat(p.wrap(Unpooled.wrappedBuffer(respWire))).isNull();
        assertThat(crypto.reSignResponse(p, 4, b, authenticator(nasWire), a, authenticator(nasWire), 42))
                .isEqualTo(RadiusDrops.BAD_AUTHENTICATOR);
        assertThat(respWire).isEqualTo(before);
    }

    @Test
    void accountingResponseIsReSignedForTheNas() throws Exception {
        AccountingRequest nas = accountingStart();
        byte[] nasWire = encodeRequest(nas, SECRET_A);
        ByteBuf req = Unpooled.wrappedBuffer(nasWire.clone());
        assertThat(p.wrap(req)).isNull();
        assertThat(crypto.reSignRequest(p, a, b, 5, original)).isNull();
        org.tinyradius.packet.RadiusPacket atReal = decodeRequest(bytes(req), SECRET_B);
        byte[] respWire = encodeResponse(new org.tinyradius.packet.RadiusPacket(5, 5), SECRET_B, atReal);
        ByteBuf resp = Unpooled.wrappedBuffer(respWire);
        assertThat(p.wrap(resp)).isNull();
        assertThat(crypto.reSignResponse(p, 4, b, atReal.getAuthenticator(), a, original, 42)).isNull();
        org.tinyradius.packet.RadiusPacket atNas = org.tinyradius.packet.RadiusPacket.decodeResponsePacket(
                Dictionaries.standard(), new ByteArrayInputStream(bytes(resp)), SECRET_A, nas);
        assertThat(atNas.getPacketType()).isEqualTo(5);
    }
}
