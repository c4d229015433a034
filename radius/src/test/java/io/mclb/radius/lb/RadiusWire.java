package io.mclb.radius.lb;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * RADIUS on the wire for {@link RadiusServiceFuzzTest}, written independently of the production
 * codec: the fuzz test builds and signs its requests and answers, and checks what reaches the NAS
 * and the reals, with these helpers, so that a mistake in the codec cannot hide itself by being
 * made on both sides of the check.
 */
final class RadiusWire {
    private static final HexFormat HEX = HexFormat.of();

    private RadiusWire() {
    }

    static int u16(byte[] b, int o) {
        return ((b[o] & 0xff) << 8) | (b[o + 1] & 0xff);
    }

    static boolean computedAuthenticator(int code) {
        return code == 4 || code == 40 || code == 43;
    }

    static boolean isResponse(int code) {
        return code == 2 || code == 3 || code == 5 || code == 11 || code == 41 || code == 42 || code == 44
                || code == 45;
    }

    static byte[] attr(int type, byte[] value) {
        byte[] a = new byte[2 + value.length];
        a[0] = (byte) type;
        a[1] = (byte) a.length;
        System.arraycopy(value, 0, a, 2, value.length);
        return a;
    }

    static byte[] sub(int type, byte[] value) {
        return attr(type, value);
    }

    static byte[] vsa(long vendor, byte[] subs) {
        return attr(26, concat(List.of(int32((int) vendor), subs)));
    }

    static byte[] int32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    static byte[] md5(byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            for (byte[] p : parts) {
                md.update(p);
            }
            return md.digest();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static byte[] hmac(String secret, byte[] data, int len) {
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
            mac.update(data, 0, len);
            return mac.doFinal();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** RFC 2865 5.2, padded to a multiple of 16 (at least 16, at most 128 octets). */
    static byte[] hidePassword(byte[] plain, byte[] auth, String secret) {
        byte[] p = Arrays.copyOf(plain, Math.min(128, Math.max(16, (plain.length + 15) / 16 * 16)));
        byte[] s = secret.getBytes(StandardCharsets.UTF_8);
        byte[] prev = auth;
        for (int off = 0; off < p.length; off += 16) {
            byte[] b = md5(s, prev);
            for (int i = 0; i < 16; i++) {
                p[off + i] ^= b[i];
            }
            prev = Arrays.copyOfRange(p, off, off + 16);
        }
        return p;
    }

    /** True when every attribute inside Length has a length of at least 2 and fits. */
    static boolean wellFormed(byte[] w, int len) {
        int i = 20;
        while (i < len) {
            if (len - i < 2 || (w[i + 1] & 0xff) < 2 || (w[i + 1] & 0xff) > len - i) {
                return false;
            }
            i += w[i + 1] & 0xff;
        }
        return true;
    }

    /** Index of the value of the first 18-octet Message-Authenticator, walking until the attributes stop fitting; -1. */
    static int maValue(byte[] w, int len) {
        for (int i = 20; i + 2 <= len; ) {
            int alen = w[i + 1] & 0xff;
            if (alen < 2 || alen > len - i) {
                return -1;
            }
            if ((w[i] & 0xff) == 80 && alen == 18) {
                return i + 2;
            }
            i += alen;
        }
        return -1;
    }

    /** HMAC-MD5 over the first {@code len} octets with the MA zeroed and the authenticator field {@code field} (null: as is). */
    static byte[] ma(byte[] w, int len, int ma, byte[] field, String secret) {
        byte[] c = Arrays.copyOf(w, len);
        if (field != null) {
            System.arraycopy(field, 0, c, 4, 16);
        }
        Arrays.fill(c, ma, ma + 16, (byte) 0);
        return hmac(secret, c, len);
    }

    /**
     * Signs a request in place over its Length (RFC 2865/2866/2869/5176): Message-Authenticator
     * with the packet's own authenticator (Access-Request, Status-Server, anything else) or
     * zeros (Accounting, CoA, Disconnect), then the computed Request Authenticator.
     */
    static void signRequest(byte[] w, String secret) {
        int len = Math.min(u16(w, 2), w.length);
        if (len < 20) {
            return;
        }
        int code = w[0] & 0xff;
        boolean computed = computedAuthenticator(code);
        if (computed) {
            Arrays.fill(w, 4, 20, (byte) 0);
        }
        int ma = maValue(w, len);
        if (ma >= 0) {
            System.arraycopy(ma(w, len, ma, null, secret), 0, w, ma, 16);
        }
        if (computed) {
            byte[] auth = md5(Arrays.copyOfRange(w, 0, len), secret.getBytes(StandardCharsets.UTF_8));
            System.arraycopy(auth, 0, w, 4, 16);
        }
    }

    /** The Authenticator field under a response's Message-Authenticator (RFC 2869 5.14, RFC 5997, RFC 5080 2.2.4 as FreeRADIUS). */
    static byte[] responseMaField(int code, int requestCode, byte[] requestAuth) {
        return code == 2 || code == 3 || code == 11 || requestCode == 12 ? requestAuth : new byte[16];
    }

    /** Signs a response in place over its Length: Message-Authenticator, then the Response Authenticator. */
    static void signResponse(byte[] w, int requestCode, byte[] requestAuth, String secret) {
        int len = Math.min(u16(w, 2), w.length);
        if (len < 20) {
            return;
        }
        int ma = maValue(w, len);
        if (ma >= 0) {
            System.arraycopy(ma(w, len, ma, responseMaField(w[0] & 0xff, requestCode, requestAuth), secret), 0,
                    w, ma, 16);
        }
        System.arraycopy(requestAuth, 0, w, 4, 16);
        byte[] auth = md5(Arrays.copyOfRange(w, 0, len), secret.getBytes(StandardCharsets.UTF_8));
        System.arraycopy(auth, 0, w, 4, 16);
    }

    /** The response's authenticators verify with {@code secret} against that request. */
    static boolean answerVerifies(byte[] w, int requestCode, byte[] requestAuth, String secret) {
        int len = u16(w, 2);
        byte[] c = Arrays.copyOf(w, len);
        System.arraycopy(requestAuth, 0, c, 4, 16);
        byte[] want = md5(c, secret.getBytes(StandardCharsets.UTF_8));
        if (!Arrays.equals(want, Arrays.copyOfRange(w, 4, 20))) {
            return false;
        }
        int ma = maValue(w, len);
        return ma < 0 || Arrays.equals(ma(w, len, ma, responseMaField(w[0] & 0xff, requestCode, requestAuth),
                secret), Arrays.copyOfRange(w, ma, ma + 16));
    }

    /** The first 160 octets in hex, for assertion messages. */
    static String hex(byte[] b) {
        String x = HEX.formatHex(b, 0, Math.min(b.length, 160));
        return b.length > 160 ? x + "... (" + b.length + " octets)" : x;
    }
}
