package io.mclb.radius.lb;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * RFC 2869 section 5.14 Message-Authenticator written and checked with the JDK's own HMAC-MD5 and
 * MD5, independent of mclb's codec, so that the tests check mclb against the RFC rather than
 * against itself.
 */
final class MessageAuthenticators {
    static final int TYPE = 80;
    private static final int LENGTH = 18;

    private MessageAuthenticators() {
    }

    /** {@code request} (a whole Access-Request) with a Message-Authenticator appended and computed. */
    static byte[] signRequest(byte[] request, String secret) {
        byte[] out = appendEmpty(request);
        byte[] mac = hmac(out, secret);
        System.arraycopy(mac, 0, out, out.length - 16, 16);
        return out;
    }

    /**
     * {@code response} (whole, signed without Message-Authenticator) with one appended: the HMAC
     * over the packet carrying the request's authenticator, then the Response Authenticator again.
     */
    static byte[] signResponse(byte[] response, byte[] requestAuthenticator, String secret) {
        byte[] out = appendEmpty(response);
        System.arraycopy(requestAuthenticator, 0, out, 4, 16);
        byte[] mac = hmac(out, secret);
        System.arraycopy(mac, 0, out, out.length - 16, 16);
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(out);
            md5.update(secret.getBytes(StandardCharsets.UTF_8));
            System.arraycopy(md5.digest(), 0, out, 4, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    /** Offset of the first Message-Authenticator attribute of {@code packet}, or -1. */
    static int find(byte[] packet) {
        int length = (packet[2] & 0xFF) << 8 | packet[3] & 0xFF;
        for (int i = 20; i + 2 <= length; i += packet[i + 1] & 0xFF) {
            if ((packet[i] & 0xFF) == TYPE) {
                return i;
            }
            if ((packet[i + 1] & 0xFF) < 2) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * Whether the Message-Authenticator of {@code packet} verifies with {@code secret}; for a
     * response, {@code requestAuthenticator} is the authenticator of the request it answers.
     */
    static boolean verifies(byte[] packet, byte[] requestAuthenticator, String secret) {
        int at = find(packet);
        if (at < 0) {
            return false;
        }
        byte[] copy = Arrays.copyOf(packet, (packet[2] & 0xFF) << 8 | packet[3] & 0xFF);
        byte[] sent = Arrays.copyOfRange(copy, at + 2, at + LENGTH);
        Arrays.fill(copy, at + 2, at + LENGTH, (byte) 0);
        if (requestAuthenticator != null) {
            System.arraycopy(requestAuthenticator, 0, copy, 4, 16);
        }
        return MessageDigest.isEqual(sent, hmac(copy, secret));
    }

    private static byte[] appendEmpty(byte[] packet) {
        int length = (packet[2] & 0xFF) << 8 | packet[3] & 0xFF;
        byte[] out = Arrays.copyOf(packet, length + LENGTH);
        out[length] = (byte) TYPE;
        out[length + 1] = (byte) LENGTH;
        out[2] = (byte) (out.length >>> 8);
        out[3] = (byte) out.length;
        return out;
    }

    private static byte[] hmac(byte[] data, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
            return mac.doFinal(data);
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
