package io.mclb.perf.radius.sim;

import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * User-Password hiding and checking (RFC 2865 section 5.2): {@code c1 = p1 xor MD5(S|RA)},
 * {@code ci = pi xor MD5(S|c(i-1))}, the password padded with zero octets to a multiple of 16
 * (at most 128). The codec only re-hides (proxy case); the simulator and the generator are the
 * two ends, so they need the plain operations. Reuses one digest and scratch arrays: one instance
 * per event loop, nothing allocated per packet.
 */
public final class UserPassword {
    /** Longest hidden value RFC 2865 allows. */
    public static final int MAX_LENGTH = 128;

    private final MessageDigest md5;
    private final byte[] secret;
    private final byte[] key = new byte[16];
    private final byte[] chain = new byte[16];

    public UserPassword(RadiusSecret secret) {
        this.secret = secret.copyBytes();
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is mandatory in every JRE", e);
        }
    }

    /** Octets the hidden form of a {@code plainLength}-octet password takes (16..128). */
    public static int hiddenLength(int plainLength) {
        return Math.max(16, (plainLength + 15) & ~15);
    }

    /**
     * Appends the hidden form of {@code plain} (1..128 octets) to {@code out}.
     *
     * @return octets written ({@link #hiddenLength})
     */
    public int hide(byte[] plain, byte[] requestAuthenticator, ByteBuf out) {
        int len = hiddenLength(plain.length);
        System.arraycopy(requestAuthenticator, 0, chain, 0, 16);
        for (int block = 0; block < len; block += 16) {
            keyFor(chain);
            for (int i = 0; i < 16; i++) {
                int j = block + i;
                byte c = (byte) ((j < plain.length ? plain[j] : 0) ^ key[i]);
                chain[i] = c;
                out.writeByte(c);
            }
        }
        return len;
    }

    /**
     * True when the hidden value at {@code index} ({@code length} octets, a multiple of 16) reveals
     * {@code expected} followed only by zero padding.
     */
    public boolean matches(ByteBuf buf, int index, int length, byte[] requestAuthenticator, byte[] expected) {
        if (length < 16 || length > MAX_LENGTH || (length & 15) != 0 || expected.length > length) {
            return false;
        }
        System.arraycopy(requestAuthenticator, 0, chain, 0, 16);
        int diff = 0;
        for (int block = 0; block < length; block += 16) {
            keyFor(chain);
            for (int i = 0; i < 16; i++) {
                int j = block + i;
                byte c = buf.getByte(index + j);
                byte p = (byte) (c ^ key[i]);
                diff |= p ^ (j < expected.length ? expected[j] : 0);
                chain[i] = c;
            }
        }
        return diff == 0;
    }

    private void keyFor(byte[] previous) {
        md5.update(secret);
        md5.update(previous, 0, 16);
        try {
            md5.digest(key, 0, 16);
        } catch (DigestException e) {
            throw new IllegalStateException("16-octet MD5 output cannot fail", e);
        }
    }
}
