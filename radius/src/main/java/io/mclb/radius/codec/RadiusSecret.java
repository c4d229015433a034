package io.mclb.radius.codec;

import io.mclb.config.CiscoType7;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A RADIUS shared secret. Immutable; safe to share between event loops. {@link #toString} never
 * prints the value. Also holds the MD5 states after the HMAC-MD5 inner and outer key pads (RFC 2104:
 * a key longer than 64 octets is replaced by its MD5), so that a Message-Authenticator starts from
 * them instead of hashing both pads again per packet.
 */
public final class RadiusSecret {
    private static final int HMAC_BLOCK = 64;

    private final byte[] value;
    private final int[] innerState;
    private final int[] outerState;

    private RadiusSecret(byte[] value) {
        if (value.length == 0) {
            throw new IllegalArgumentException("RADIUS shared secret must not be empty (RFC 2865 section 3)");
        }
        this.value = value.clone();
        byte[] key = value.length > HMAC_BLOCK ? md5(value) : value;
        byte[] innerPad = new byte[HMAC_BLOCK];
        byte[] outerPad = new byte[HMAC_BLOCK];
        for (int i = 0; i < HMAC_BLOCK; i++) {
            byte k = i < key.length ? key[i] : 0;
            innerPad[i] = (byte) (k ^ 0x36);
            outerPad[i] = (byte) (k ^ 0x5c);
        }
        innerState = Md5.stateAfter(innerPad);
        outerState = Md5.stateAfter(outerPad);
    }

    public static RadiusSecret of(byte[] value) {
        return new RadiusSecret(value);
    }

    /** The secret as UTF-8 octets (how radclient/FreeRADIUS read {@code secret = ...}). */
    public static RadiusSecret ofString(String value) {
        return new RadiusSecret(value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Parses an IOS style key: {@code "0 <clear>"}, {@code "7 <type-7 hex>"} or a bare clear text.
     * Config time only; throws {@link IllegalArgumentException} naming what is allowed.
     */
    public static RadiusSecret parseKey(String key) {
        String k = key.strip();
        if (k.startsWith("7 ")) {
            return ofString(CiscoType7.decode(k.substring(2).strip()));
        }
        if (k.startsWith("0 ")) {
            return ofString(k.substring(2).strip());
        }
        return ofString(k);
    }

    /** The IOS {@code key 7 <hex>} form of this secret (obfuscation, not protection). */
    public String toType7(int seed) {
        return CiscoType7.encode(new String(value, StandardCharsets.UTF_8), seed);
    }

    public int length() {
        return value.length;
    }

    /** A copy of the secret octets. */
    public byte[] copyBytes() {
        return value.clone();
    }

    /** The octets themselves: read-only by contract, for the digest code in this package. */
    byte[] bytes() {
        return value;
    }

    /** MD5 state after the HMAC inner pad (read-only by contract). */
    int[] innerState() {
        return innerState;
    }

    /** MD5 state after the HMAC outer pad (read-only by contract). */
    int[] outerState() {
        return outerState;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RadiusSecret s && MessageDigest.isEqual(value, s.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(md5(value));
    }

    @Override
    public String toString() {
        return "RadiusSecret[" + value.length + " octets]";
    }

    private static byte[] md5(byte[] b) {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is mandatory in every JRE", e);
        }
    }
}
