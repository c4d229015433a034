package io.mclb.sticky;

import java.util.Arrays;

/**
 * A reusable, fixed-size sticky key: a flyweight over 20 bytes so that lookups on the data path
 * allocate nothing (keep one per event loop and refill it).
 *
 * <pre>
 *  0      1      2      3      4                                   20
 * +------+------+------+------+-----------------------------------+
 * | kind | group (BE)  | len  | identity, len bytes, zero padded  |
 * +------+------+------+------+-----------------------------------+
 * </pre>
 * Identities longer than 16 bytes (long User-Names, Calling-Station-Ids) are replaced by a
 * 128-bit hash of them and {@code len} is set to 0xff.
 */
public final class StickyKey {
    public static final int SIZE = 20;
    public static final int MAX_IDENTITY = 16;
    static final int HASHED = 0xff;

    private final byte[] bytes = new byte[SIZE];

    public byte[] bytes() {
        return bytes;
    }

    public StickyKind kind() {
        return StickyKind.ofCode(bytes[0]);
    }

    public int group() {
        return ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
    }

    /** Identity length, or 0xff when the identity was hashed. */
    public int identityLength() {
        return bytes[3] & 0xff;
    }

    public StickyKey set(StickyKind kind, int group, byte[] identity, int off, int len) {
        Arrays.fill(bytes, (byte) 0);
        bytes[0] = (byte) kind.code();
        bytes[1] = (byte) (group >>> 8);
        bytes[2] = (byte) group;
        if (len <= MAX_IDENTITY) {
            bytes[3] = (byte) len;
            System.arraycopy(identity, off, bytes, 4, len);
        } else {
            bytes[3] = (byte) HASHED;
            long h1 = Hashing.murmur64(identity, off, len, 0x9e3779b97f4a7c15L);
            long h2 = Hashing.murmur64(identity, off, len, 0xc2b2ae3d27d4eb4fL);
            putLong(bytes, 4, h1);
            putLong(bytes, 12, h2);
        }
        return this;
    }

    public StickyKey set(StickyKind kind, int group, byte[] identity) {
        return set(kind, group, identity, 0, identity.length);
    }

    /** Client-IP sticky: the address masked to {@code prefixLength} bits. */
    public StickyKey setClientIp(int group, byte[] address, int prefixLength) {
        set(StickyKind.CLIENT_IP, group, address, 0, address.length);
        int bits = address.length * 8;
        for (int bit = prefixLength; bit < bits; bit++) {
            bytes[4 + bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return this;
    }

    public StickyKey copyFrom(byte[] src) {
        System.arraycopy(src, 0, bytes, 0, SIZE);
        return this;
    }

    /** The identity for display: IPs, BCD and text are formatted by the caller who knows the kind. */
    public byte[] identity() {
        int len = identityLength();
        return Arrays.copyOfRange(bytes, 4, 4 + (len == HASHED ? MAX_IDENTITY : len));
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    @Override
    public String toString() {
        return kind() + "/" + group() + "/" + java.util.HexFormat.of().formatHex(identity());
    }
}
