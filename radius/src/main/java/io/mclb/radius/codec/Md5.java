package io.mclb.radius.codec;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MD5 (RFC 1321) for RADIUS's short messages, plus HMAC-MD5 (RFC 2104) resumed from the digest
 * state after each secret's key pads, which {@link RadiusSecret} computes once. Not thread-safe:
 * one per event loop, owned by a {@link RadiusCrypto}; nothing is allocated per message.
 *
 * <p>Why not {@code java.security.MessageDigest}: its MD5 compression is a JIT intrinsic, but a
 * RADIUS packet is one to three 64-octet blocks hashed in four to six pieces, and per packet the
 * JDK path cost more than the compression itself (each update and digest goes through the
 * provider's checks and buffer copies, a direct buffer is first copied into an array), and it
 * cannot resume from a saved state, so every HMAC compressed both 64-octet key pads again: 4 of
 * the 15 blocks hashed for an Access-Request and its Accept were key pads (perf/README.md,
 * "RADIUS path: MD5 ..."). Checked against RFC 1321's test suite and {@code MessageDigest} over random inputs
 * ({@code Md5Test}), HMAC against RFC 2202's HMAC-MD5 vectors.
 *
 * <p>The compression itself is the JDK's intrinsic when the JVM opens {@code sun.security.provider}
 * to us (the launcher, the package's JVM arguments and the tests do): {@link JdkCompression} drives
 * a private {@code sun.security.provider.MD5}'s compression over our block and state, 87-100 ns a
 * block here against 142-155 ns for the Java rounds below; an Access-Request and its Accept
 * re-signed cost 0.75 x the CPU they did (perf/README.md, "RADIUS auth: the benchmark's table
 * growth, MD5 through the JDK's intrinsic ..."). Without the opening the Java rounds run: same
 * digests, slower.
 */
final class Md5 {
    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int A0 = 0x67452301;
    private static final int B0 = 0xefcdab89;
    private static final int C0 = 0x98badcfe;
    private static final int D0 = 0x10325476;

    /** A, B, C, D: the JDK digest's own state array when its compression is used, else ours. */
    private final int[] st;
    /** The JDK's {@code sun.security.provider.MD5} whose compression runs over {@link #block}, or null. */
    private final Object jdk;
    /** The block being filled: {@code count & 63} octets of it are pending. */
    private final byte[] block = new byte[64];
    /** Octets hashed since {@link #reset}, key pad included after {@link #hmacStart}. */
    private long count;
    private final byte[] inner = new byte[16];

    Md5() {
        this(JdkCompression.AVAILABLE);
    }

    /** @param intrinsic whether to compress through the JDK's intrinsic (when it is reachable at all) */
    Md5(boolean intrinsic) {
        jdk = intrinsic && JdkCompression.AVAILABLE ? JdkCompression.newDigest() : null;
        st = jdk != null ? JdkCompression.state(jdk) : new int[4];
        reset();
    }

    /** Whether this instance compresses through the JDK's intrinsic. */
    boolean intrinsic() {
        return jdk != null;
    }

    void reset() {
        st[0] = A0;
        st[1] = B0;
        st[2] = C0;
        st[3] = D0;
        count = 0;
    }

    void update(byte[] src) {
        update(src, 0, src.length);
    }

    void update(byte[] src, int off, int len) {
        while (len > 0) {
            int pos = (int) count & 63;
            int n = Math.min(64 - pos, len);
            System.arraycopy(src, off, block, pos, n);
            count += n;
            off += n;
            len -= n;
            if (pos + n == 64) {
                compress();
            }
        }
    }

    /** Hashes {@code len} octets of {@code buf} at absolute {@code index}, heap or direct, without an intermediate copy of the whole range. */
    void update(ByteBuf buf, int index, int len) {
        while (len > 0) {
            int pos = (int) count & 63;
            int n = Math.min(64 - pos, len);
            buf.getBytes(index, block, pos, n);
            count += n;
            index += n;
            len -= n;
            if (pos + n == 64) {
                compress();
            }
        }
    }

    /** Finishes the digest into {@code dst[0..16)} and resets, as {@code MessageDigest.digest} does. */
    void digest(byte[] dst) {
        long bits = count << 3;
        int pos = (int) count & 63;
        block[pos++] = (byte) 0x80;
        if (pos > 56) {
            java.util.Arrays.fill(block, pos, 64, (byte) 0);
            compress();
            pos = 0;
        }
        java.util.Arrays.fill(block, pos, 56, (byte) 0);
        LE.set(block, 56, (int) bits);
        LE.set(block, 60, (int) (bits >>> 32));
        compress();
        LE.set(dst, 0, st[0]);
        LE.set(dst, 4, st[1]);
        LE.set(dst, 8, st[2]);
        LE.set(dst, 12, st[3]);
        reset();
    }

    /** Starts HMAC-MD5 with {@code key}: the state after its inner pad, no compression. */
    void hmacStart(RadiusSecret key) {
        resume(key.innerState());
    }

    /** Finishes HMAC-MD5 into {@code dst[0..16)}: MD5(outer pad | MD5(inner pad | message)). */
    void hmacFinish(RadiusSecret key, byte[] dst) {
        digest(inner);
        resume(key.outerState());
        update(inner, 0, 16);
        digest(dst);
    }

    private void resume(int[] afterPad) {
        st[0] = afterPad[0];
        st[1] = afterPad[1];
        st[2] = afterPad[2];
        st[3] = afterPad[3];
        count = 64;
    }

    /** The state after hashing one 64-octet block (a key pad), for {@link #hmacStart}. */
    static int[] stateAfter(byte[] pad64) {
        Md5 m = new Md5(false);
        m.update(pad64, 0, 64);
        return m.st.clone();
    }

    private void compress() {
        if (jdk != null) {
            JdkCompression.compress(jdk, block);
        } else {
            javaCompress();
        }
    }

    private void javaCompress() {
        int[] st = this.st;
        byte[] block = this.block;
        int x0 = (int) LE.get(block, 0);
        int x1 = (int) LE.get(block, 4);
        int x2 = (int) LE.get(block, 8);
        int x3 = (int) LE.get(block, 12);
        int x4 = (int) LE.get(block, 16);
        int x5 = (int) LE.get(block, 20);
        int x6 = (int) LE.get(block, 24);
        int x7 = (int) LE.get(block, 28);
        int x8 = (int) LE.get(block, 32);
        int x9 = (int) LE.get(block, 36);
        int x10 = (int) LE.get(block, 40);
        int x11 = (int) LE.get(block, 44);
        int x12 = (int) LE.get(block, 48);
        int x13 = (int) LE.get(block, 52);
        int x14 = (int) LE.get(block, 56);
        int x15 = (int) LE.get(block, 60);
        int a = st[0];
        int b = st[1];
        int c = st[2];
        int d = st[3];
        a = ff(a, b, c, d, x0, 0xd76aa478, 7);
        d = ff(d, a, b, c, x1, 0xe8c7b756, 12);
        c = ff(c, d, a, b, x2, 0x242070db, 17);
        b = ff(b, c, d, a, x3, 0xc1bdceee, 22);
        a = ff(a, b, c, d, x4, 0xf57c0faf, 7);
        d = ff(d, a, b, c, x5, 0x4787c62a, 12);
        c = ff(c, d, a, b, x6, 0xa8304613, 17);
        b = ff(b, c, d, a, x7, 0xfd469501, 22);
        a = ff(a, b, c, d, x8, 0x698098d8, 7);
        d = ff(d, a, b, c, x9, 0x8b44f7af, 12);
        c = ff(c, d, a, b, x10, 0xffff5bb1, 17);
        b = ff(b, c, d, a, x11, 0x895cd7be, 22);
        a = ff(a, b, c, d, x12, 0x6b901122, 7);
        d = ff(d, a, b, c, x13, 0xfd987193, 12);
        c = ff(c, d, a, b, x14, 0xa679438e, 17);
        b = ff(b, c, d, a, x15, 0x49b40821, 22);
        a = gg(a, b, c, d, x1, 0xf61e2562, 5);
        d = gg(d, a, b, c, x6, 0xc040b340, 9);
        c = gg(c, d, a, b, x11, 0x265e5a51, 14);
        b = gg(b, c, d, a, x0, 0xe9b6c7aa, 20);
        a = gg(a, b, c, d, x5, 0xd62f105d, 5);
        d = gg(d, a, b, c, x10, 0x02441453, 9);
        c = gg(c, d, a, b, x15, 0xd8a1e681, 14);
        b = gg(b, c, d, a, x4, 0xe7d3fbc8, 20);
        a = gg(a, b, c, d, x9, 0x21e1cde6, 5);
        d = gg(d, a, b, c, x14, 0xc33707d6, 9);
        c = gg(c, d, a, b, x3, 0xf4d50d87, 14);
        b = gg(b, c, d, a, x8, 0x455a14ed, 20);
        a = gg(a, b, c, d, x13, 0xa9e3e905, 5);
        d = gg(d, a, b, c, x2, 0xfcefa3f8, 9);
        c = gg(c, d, a, b, x7, 0x676f02d9, 14);
        b = gg(b, c, d, a, x12, 0x8d2a4c8a, 20);
        a = hh(a, b, c, d, x5, 0xfffa3942, 4);
        d = hh(d, a, b, c, x8, 0x8771f681, 11);
        c = hh(c, d, a, b, x11, 0x6d9d6122, 16);
        b = hh(b, c, d, a, x14, 0xfde5380c, 23);
        a = hh(a, b, c, d, x1, 0xa4beea44, 4);
        d = hh(d, a, b, c, x4, 0x4bdecfa9, 11);
        c = hh(c, d, a, b, x7, 0xf6bb4b60, 16);
        b = hh(b, c, d, a, x10, 0xbebfbc70, 23);
        a = hh(a, b, c, d, x13, 0x289b7ec6, 4);
        d = hh(d, a, b, c, x0, 0xeaa127fa, 11);
        c = hh(c, d, a, b, x3, 0xd4ef3085, 16);
        b = hh(b, c, d, a, x6, 0x04881d05, 23);
        a = hh(a, b, c, d, x9, 0xd9d4d039, 4);
        d = hh(d, a, b, c, x12, 0xe6db99e5, 11);
        c = hh(c, d, a, b, x15, 0x1fa27cf8, 16);
        b = hh(b, c, d, a, x2, 0xc4ac5665, 23);
        a = ii(a, b, c, d, x0, 0xf4292244, 6);
        d = ii(d, a, b, c, x7, 0x432aff97, 10);
        c = ii(c, d, a, b, x14, 0xab9423a7, 15);
        b = ii(b, c, d, a, x5, 0xfc93a039, 21);
        a = ii(a, b, c, d, x12, 0x655b59c3, 6);
        d = ii(d, a, b, c, x3, 0x8f0ccc92, 10);
        c = ii(c, d, a, b, x10, 0xffeff47d, 15);
        b = ii(b, c, d, a, x1, 0x85845dd1, 21);
        a = ii(a, b, c, d, x8, 0x6fa87e4f, 6);
        d = ii(d, a, b, c, x15, 0xfe2ce6e0, 10);
        c = ii(c, d, a, b, x6, 0xa3014314, 15);
        b = ii(b, c, d, a, x13, 0x4e0811a1, 21);
        a = ii(a, b, c, d, x4, 0xf7537e82, 6);
        d = ii(d, a, b, c, x11, 0xbd3af235, 10);
        c = ii(c, d, a, b, x2, 0x2ad7d2bb, 15);
        b = ii(b, c, d, a, x9, 0xeb86d391, 21);
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
    }

    private static int ff(int a, int b, int c, int d, int x, int k, int s) {
        return Integer.rotateLeft(a + ((b & c) | (~b & d)) + x + k, s) + b;
    }

    private static int gg(int a, int b, int c, int d, int x, int k, int s) {
        return Integer.rotateLeft(a + ((b & d) | (c & ~d)) + x + k, s) + b;
    }

    private static int hh(int a, int b, int c, int d, int x, int k, int s) {
        return Integer.rotateLeft(a + (b ^ c ^ d) + x + k, s) + b;
    }

    private static int ii(int a, int b, int c, int d, int x, int k, int s) {
        return Integer.rotateLeft(a + (c ^ (b | ~d)) + x + k, s) + b;
    }
}
