package io.mclb.radius.lb;

import io.mclb.radius.codec.Dictionaries;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccessRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Probe requests and the check of their answers, without I/O. A Status-Server (RFC 5997) or an
 * Access-Request (User-Name, User-Password), both with Message-Authenticator, encoded by
 * TinyRadius and signed with the real's secret; an answer passes when its identifier matches,
 * its Response Authenticator and Message-Authenticator verify with the real's secret, and its
 * code is an expected one (any response to Status-Server; Accept or Reject to an
 * Access-Request: a Reject still proves the AAA is alive and knows our secret). Not for the data
 * path: a probe every few seconds per real.
 */
final class ProbePackets {
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket p = new RadiusPacket();

    /** An encoded probe and the authenticator its answer is checked against. */
    record Probe(byte[] wire, int code, int id, byte[] authenticator) {
    }

    Probe build(ProbeSettings s, RadiusSecret secret, int id) {
        String clear = new String(secret.copyBytes(), StandardCharsets.UTF_8);
        org.tinyradius.packet.RadiusPacket r;
        if (s.statusServer()) {
            r = new org.tinyradius.packet.RadiusPacket(RadiusCodes.STATUS_SERVER, id);
        } else {
            r = new AccessRequest(s.user(), new String(s.password().copyBytes(), StandardCharsets.UTF_8));
            r.setPacketIdentifier(id);
        }
        r.setDictionary(Dictionaries.standard());
        r.addAttribute(new RadiusAttribute(80, new byte[16]));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            r.encodeRequestPacket(out, clear);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] wire = out.toByteArray();
        ByteBuf b = Unpooled.wrappedBuffer(wire);
        if (p.wrap(b) != null) {
            throw new IllegalStateException("probe packet does not frame");
        }
        crypto.signMessageAuthenticator(p, secret, p.code(), null);
        return new Probe(wire, p.code(), id, Arrays.copyOfRange(wire, 4, 20));
    }

    /** Whether {@code answer} is a good answer to {@code probe} from a real with {@code secret}. */
    boolean accepts(Probe probe, ByteBuf answer, RadiusSecret secret) {
        if (p.wrap(answer) != null || p.identifier() != probe.id()) {
            return false;
        }
        int code = p.code();
        boolean expected = probe.code() == RadiusCodes.STATUS_SERVER ? RadiusCodes.isResponse(code)
                : code == RadiusCodes.ACCESS_ACCEPT || code == RadiusCodes.ACCESS_REJECT;
        return expected && crypto.verifyResponse(p, probe.code(), secret, probe.authenticator()) == null;
    }
}
