package io.mclb.radius.codec;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;
import java.security.SecureRandom;

/**
 * RADIUS authenticators, Message-Authenticator, hidden-attribute re-encryption and the re-signing
 * a proxying balancer does, all in place in the packet's buffer. One instance per event loop: it
 * owns a reused MD5 engine and scratch arrays (not thread-safe); nothing is allocated per packet.
 *
 * <p>Rules (checked against RFC 2865 section 3, RFC 2866 section 3, RFC 2869 section 5.14,
 * RFC 3579 section 3.2, RFC 5997 section 3, and /work/shared/reference/radius.md section 5, which
 * was taken from FreeRADIUS {@code src/lib/radius.c} and OpenBSD {@code radius_msgauth.c}):
 * <ul>
 * <li>Accounting/CoA/Disconnect Request Authenticator = MD5(Code|Id|Length|16 zero octets|Attrs|S).</li>
 * <li>Response Authenticator = MD5(Code|Id|Length|Request Authenticator|Attrs|S).</li>
 * <li>Message-Authenticator = HMAC-MD5(S, packet with the MA value zeroed), the Authenticator field
 *     holding: the packet's own random authenticator (Access-Request, Status-Server); the request's
 *     authenticator (Access-Accept/Reject/Challenge, and any reply to Status-Server); 16 zero octets
 *     (Accounting, CoA, Disconnect requests and their replies). MA is computed first, then the
 *     MD5 authenticator over the final attributes.</li>
 * </ul>
 * Random Request Authenticators are MD5(32-octet SecureRandom seed | 64-bit counter): as fast as
 * one MD5 block and, unlike a plain PRNG, not predictable from earlier authenticators (RFC 2865
 * section 3 asks for unpredictability).
 */
public final class RadiusCrypto {
    private static final byte[] ZEROS = new byte[16];

    private final Md5 md5 = new Md5();
    private final HiddenAttributes hidden = new HiddenAttributes(md5);
    private final byte[] seed = new byte[32];
    private long counter;
    private final byte[] digest = new byte[16];
    private final byte[] received = new byte[16];
    private final byte[] originalAuth = new byte[16];
    private final byte[] newAuth = new byte[16];
    private final byte[] counterBytes = new byte[8];

    /** Seeds the authenticator generator from {@link SecureRandom}. */
    public RadiusCrypto() {
        new SecureRandom().nextBytes(seed);
    }

    /** Deterministic authenticators, for tests and benchmarks only. */
    public RadiusCrypto(byte[] seed32) {
        System.arraycopy(seed32, 0, seed, 0, Math.min(32, seed32.length));
    }

    /** Writes 16 fresh unpredictable octets into {@code out[0..16)}. */
    public void randomAuthenticator(byte[] out) {
        long c = counter++;
        for (int i = 0; i < 8; i++) {
            counterBytes[i] = (byte) (c >>> (56 - 8 * i));
        }
        md5.reset();
        md5.update(seed);
        md5.update(counterBytes);
        md5.digest(out);
    }

    // ---- Accounting-style Request Authenticator (RFC 2866 section 3) ----

    public boolean verifyAccountingRequest(RadiusPacket p, RadiusSecret secret) {
        computeWithField(p, ZEROS, secret, digest);
        p.buffer().getBytes(p.authenticatorIndex(), received, 0, 16);
        return constantTimeEquals(digest, received);
    }

    /** Computes the Request Authenticator over the packet as it is now and writes it in place. */
    public void signAccountingRequest(RadiusPacket p, RadiusSecret secret) {
        computeWithField(p, ZEROS, secret, digest);
        p.setAuthenticator(digest);
    }

    // ---- Response Authenticator (RFC 2865 section 3) ----

    /** MD5(Code|Id|Length|requestAuthenticator|Attrs|secret) into {@code out[0..16)}. */
    public void responseAuthenticator(RadiusPacket response, byte[] requestAuthenticator, RadiusSecret secret,
                                      byte[] out) {
        computeWithField(response, requestAuthenticator, secret, out);
    }

    public boolean verifyResponse(RadiusPacket response, byte[] requestAuthenticator, RadiusSecret secret) {
        computeWithField(response, requestAuthenticator, secret, digest);
        response.buffer().getBytes(response.authenticatorIndex(), received, 0, 16);
        return constantTimeEquals(digest, received);
    }

    public void signResponse(RadiusPacket response, byte[] requestAuthenticator, RadiusSecret secret) {
        computeWithField(response, requestAuthenticator, secret, digest);
        response.setAuthenticator(digest);
    }

    private void computeWithField(RadiusPacket p, byte[] field, RadiusSecret secret, byte[] out) {
        ByteBuf buf = p.buffer();
        int o = p.offset();
        md5.reset();
        md5.update(buf, o, 4);
        md5.update(field, 0, 16);
        md5.update(buf, o + RadiusPacket.HEADER_LENGTH, p.length() - RadiusPacket.HEADER_LENGTH);
        md5.update(secret.bytes());
        md5.digest(out);
    }

    // ---- Message-Authenticator (RFC 2869 section 5.14, RFC 3579 section 3.2) ----

    /**
     * Verifies attribute 80; false when absent or wrong. {@code requestCode} and
     * {@code requestAuthenticator} describe the request this packet answers; for a request pass its
     * own code and {@code null}.
     */
    public boolean verifyMessageAuthenticator(RadiusPacket p, RadiusSecret secret, int requestCode,
                                              byte[] requestAuthenticator) {
        int ma = p.messageAuthenticatorIndex();
        if (ma < 0) {
            return false;
        }
        hmac(p, secret, maField(p.code(), requestCode, requestAuthenticator), digest);
        p.buffer().getBytes(ma, received, 0, 16);
        return constantTimeEquals(digest, received);
    }

    /** Recomputes attribute 80 in place (does nothing when absent); arguments as for verify. */
    public void signMessageAuthenticator(RadiusPacket p, RadiusSecret secret, int requestCode,
                                         byte[] requestAuthenticator) {
        int ma = p.messageAuthenticatorIndex();
        if (ma >= 0) {
            hmac(p, secret, maField(p.code(), requestCode, requestAuthenticator), digest);
            p.buffer().setBytes(ma, digest, 0, 16);
        }
    }

    /** The Authenticator field used under the HMAC: {@code null} means the packet's own. */
    private static byte[] maField(int code, int requestCode, byte[] requestAuthenticator) {
        if (RadiusCodes.hasRandomAuthenticator(code)) {
            return null;
        }
        if (requestCode == RadiusCodes.STATUS_SERVER
                || code == RadiusCodes.ACCESS_ACCEPT || code == RadiusCodes.ACCESS_REJECT
                || code == RadiusCodes.ACCESS_CHALLENGE) {
            return requestAuthenticator;
        }
        return ZEROS;
    }

    private void hmac(RadiusPacket p, RadiusSecret secret, byte[] field, byte[] out) {
        ByteBuf buf = p.buffer();
        int o = p.offset();
        int ma = p.messageAuthenticatorIndex();
        md5.hmacStart(secret);
        if (field == null) {
            md5.update(buf, o, RadiusPacket.HEADER_LENGTH);
        } else {
            md5.update(buf, o, 4);
            md5.update(field, 0, 16);
        }
        int attrs = o + RadiusPacket.HEADER_LENGTH;
        md5.update(buf, attrs, ma - attrs);
        md5.update(ZEROS, 0, 16);
        md5.update(buf, ma + 16, p.end() - ma - 16);
        md5.hmacFinish(secret, out);
    }

    // ---- hidden attributes ----

    /** Re-hides every User-Password (RFC 2865 5.2) from (A) to (B); {@code null} or BAD_HIDDEN_ATTRIBUTE (packet untouched). */
    public DropReason reHideUserPassword(RadiusPacket p, RadiusSecret fromSecret, byte[] fromAuthenticator,
                                         RadiusSecret toSecret, byte[] toAuthenticator) {
        DropReason bad = hidden.validate(p, true);
        if (bad == null) {
            hidden.reHideUserPasswords(p, fromSecret, fromAuthenticator, toSecret, toAuthenticator);
        }
        return bad;
    }

    /** Re-encrypts Tunnel-Password (RFC 2868 3.5) and MS-MPPE-Send/Recv-Key (RFC 2548) from (A) to (B). */
    public DropReason reSaltAttributes(RadiusPacket p, RadiusSecret fromSecret, byte[] fromAuthenticator,
                                       RadiusSecret toSecret, byte[] toAuthenticator) {
        DropReason bad = hidden.validate(p, false);
        if (bad == null) {
            hidden.reSalt(p, fromSecret, fromAuthenticator, toSecret, toAuthenticator);
        }
        return bad;
    }

    // ---- proxy re-signing ----

    /**
     * Turns a request received from a NAS into the request sent to a real, in place: verifies it with
     * {@code nasSecret} (computed authenticator for Accounting/CoA/Disconnect; Message-Authenticator
     * when present, and required for Status-Server and with EAP-Message), then sets
     * {@code newIdentifier}, a new Request Authenticator (random for Access-Request/Status-Server,
     * computed for the others), re-hides User-Password and salted attributes for {@code realSecret},
     * recomputes Message-Authenticator. The NAS's original authenticator is copied into
     * {@code originalAuthenticatorOut} (needed by {@link #reSignResponse}); the authenticator sent to
     * the real can be read back with {@link RadiusPacket#authenticator}.
     *
     * @return {@code null} when re-signed; otherwise the drop reason, and the packet is unchanged
     */
    public DropReason reSignRequest(RadiusPacket request, RadiusSecret nasSecret, RadiusSecret realSecret,
                                    int newIdentifier, byte[] originalAuthenticatorOut) {
        DropReason bad = verifyRequest(request, nasSecret);
        if (bad != null) {
            return bad;
        }
        reSignVerifiedRequest(request, nasSecret, realSecret, newIdentifier, originalAuthenticatorOut, null);
        return null;
    }

    /**
     * The checking half of {@link #reSignRequest}: known request code, computed authenticator
     * (Accounting/CoA/Disconnect), Message-Authenticator (required for Status-Server and with
     * EAP-Message) and the shape of hidden attributes. A proxy calls it when it classifies the
     * request, so the drop can be counted before anything is sent.
     *
     * @return {@code null} when the request verifies with {@code nasSecret}, otherwise the drop reason
     */
    public DropReason verifyRequest(RadiusPacket request, RadiusSecret nasSecret) {
        int code = request.code();
        boolean random = RadiusCodes.hasRandomAuthenticator(code);
        if (!random && !RadiusCodes.hasComputedRequestAuthenticator(code)) {
            return RadiusDrops.UNSUPPORTED_CODE;
        }
        if (!random && !verifyAccountingRequest(request, nasSecret)) {
            return RadiusDrops.BAD_AUTHENTICATOR;
        }
        DropReason bad = checkMessageAuthenticator(request, nasSecret, code, null);
        if (bad != null) {
            return bad;
        }
        return hidden.validate(request, random);
    }

    /**
     * The rewriting half of {@link #reSignRequest}, for a request {@link #verifyRequest} accepted
     * (unchecked requests give undefined results, never an exception).
     *
     * @param reuseAuthenticator for an Access-Request/Status-Server: the authenticator sent to the
     *                           same real before (a retransmission must repeat it so the real's
     *                           duplicate detection works), or {@code null} for a fresh random one
     */
    public void reSignVerifiedRequest(RadiusPacket request, RadiusSecret nasSecret, RadiusSecret realSecret,
                                      int newIdentifier, byte[] originalAuthenticatorOut, byte[] reuseAuthenticator) {
        int code = request.code();
        boolean random = RadiusCodes.hasRandomAuthenticator(code);
        request.authenticator(originalAuth);
        System.arraycopy(originalAuth, 0, originalAuthenticatorOut, 0, 16);
        request.setIdentifier(newIdentifier);
        if (random) {
            if (reuseAuthenticator != null) {
                System.arraycopy(reuseAuthenticator, 0, newAuth, 0, 16);
            } else {
                randomAuthenticator(newAuth);
            }
            // RFC 2868 3.5 and 2865 5.2 hide with the Request Authenticator, known up front only here.
            hidden.reHideUserPasswords(request, nasSecret, originalAuth, realSecret, newAuth);
            hidden.reSalt(request, nasSecret, originalAuth, realSecret, newAuth);
            request.setAuthenticator(newAuth);
            signMessageAuthenticator(request, realSecret, code, null);
        } else {
            signMessageAuthenticator(request, realSecret, code, null);
            signAccountingRequest(request, realSecret);
        }
    }

    /**
     * Turns a real's response into the response for the NAS, in place: verifies the Response
     * Authenticator (and Message-Authenticator when present) with {@code realSecret} and
     * {@code upstreamRequestAuthenticator} (what was sent to the real), re-encrypts salted attributes,
     * then sets {@code nasIdentifier}, recomputes Message-Authenticator and the Response
     * Authenticator with {@code nasSecret} and {@code nasRequestAuthenticator}.
     *
     * @param requestCode code of the request being answered (decides the Message-Authenticator rule)
     * @return {@code null} when re-signed; otherwise drop the response (packet unchanged)
     */
    public DropReason reSignResponse(RadiusPacket response, int requestCode, RadiusSecret realSecret,
                                     byte[] upstreamRequestAuthenticator, RadiusSecret nasSecret,
                                     byte[] nasRequestAuthenticator, int nasIdentifier) {
        DropReason bad = verifyResponse(response, requestCode, realSecret, upstreamRequestAuthenticator);
        if (bad != null) {
            return bad;
        }
        reSignVerifiedResponse(response, requestCode, realSecret, upstreamRequestAuthenticator, nasSecret,
                nasRequestAuthenticator, nasIdentifier);
        return null;
    }

    /** The checking half of {@link #reSignResponse}: {@code null} when the real's response verifies. */
    public DropReason verifyResponse(RadiusPacket response, int requestCode, RadiusSecret realSecret,
                                     byte[] upstreamRequestAuthenticator) {
        if (!verifyResponse(response, upstreamRequestAuthenticator, realSecret)) {
            return RadiusDrops.BAD_AUTHENTICATOR;
        }
        DropReason bad = checkMessageAuthenticator(response, realSecret, requestCode, upstreamRequestAuthenticator);
        if (bad != null) {
            return bad;
        }
        return hidden.validate(response, false);
    }

    /** The rewriting half of {@link #reSignResponse}, for a response {@link #verifyResponse} accepted. */
    public void reSignVerifiedResponse(RadiusPacket response, int requestCode, RadiusSecret realSecret,
                                       byte[] upstreamRequestAuthenticator, RadiusSecret nasSecret,
                                       byte[] nasRequestAuthenticator, int nasIdentifier) {
        hidden.reSalt(response, realSecret, upstreamRequestAuthenticator, nasSecret, nasRequestAuthenticator);
        response.setIdentifier(nasIdentifier);
        signMessageAuthenticator(response, nasSecret, requestCode, nasRequestAuthenticator);
        signResponse(response, nasRequestAuthenticator, nasSecret);
    }

    private DropReason checkMessageAuthenticator(RadiusPacket p, RadiusSecret secret, int requestCode,
                                                 byte[] requestAuthenticator) {
        if (p.hasMessageAuthenticator()) {
            return verifyMessageAuthenticator(p, secret, requestCode, requestAuthenticator)
                    ? null : RadiusDrops.BAD_MESSAGE_AUTHENTICATOR;
        }
        if (p.code() == RadiusCodes.STATUS_SERVER || p.findAttribute(RadiusAttributes.EAP_MESSAGE) >= 0) {
            return RadiusDrops.MISSING_MESSAGE_AUTHENTICATOR;
        }
        return null;
    }

    private static boolean constantTimeEquals(byte[] a, byte[] b) {
        int diff = 0;
        for (int i = 0; i < 16; i++) {
            diff |= a[i] ^ b[i];
        }
        return diff == 0;
    }
}
