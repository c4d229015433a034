package io.mclb.radius.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The RADIUS module's own MD5 and HMAC-MD5 against the RFC vectors and the JDK's MD5, with each
 * compression: the JDK's intrinsic (the test JVM opens {@code sun.security.provider}, as mclb's
 * launcher does) and the Java rounds used without that opening.
 */
class Md5Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theTestJvmCompressesThroughTheJdkAsMclbDoes() {
        assertThat(JdkCompression.AVAILABLE).as("--add-opens java.base/sun.security.provider in mclb.jvm.flags").isTrue();
        assertThat(new Md5().intrinsic()).isTrue();
        assertThat(new Md5(false).intrinsic()).isFalse();
    }

    private static String md5(boolean intrinsic, byte[] in) {
        Md5 m = new Md5(intrinsic);
        m.update(in);
        byte[] out = new byte[16];
        m.digest(out);
        return HEX.formatHex(out);
    }

    /** RFC 1321 appendix A.5, the test suite. */
    @ParameterizedTest(name = "intrinsic {0}")
    @ValueSource(booleans = {true, false})
    void rfc1321TestSuite(boolean intrinsic) {
        String[][] suite = {
            {"", "d41d8cd98f00b204e9800998ecf8427e"},
            {"a", "0cc175b9c0f1b6a831c399e269772661"},
            {"abc", "900150983cd24fb0d6963f7d28e17f72"},
            {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
            {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
            {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
            {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a"},
        };
        for (String[] v : suite) {
            assertThat(md5(intrinsic, v[0].getBytes(StandardCharsets.US_ASCII))).as(v[0]).isEqualTo(v[1]);
        }
    }

    /** RFC 2202 section 2, HMAC-MD5 test cases 1, 2, 3 and 6 (a key longer than the block). */
    @ParameterizedTest(name = "intrinsic {0}")
    @ValueSource(booleans = {true, false})
    void rfc2202HmacMd5(boolean intrinsic) {
        byte[] k6 = new byte[80];
        Arrays.fill(k6, (byte) 0xaa);
        byte[] k1 = new byte[16];
        Arrays.fill(k1, (byte) 0x0b);
        byte[] k3 = new byte[16];
        Arrays.fill(k3, (byte) 0xaa);
        byte[] d3 = new byte[50];
        Arrays.fill(d3, (byte) 0xdd);
        assertThat(hmac(intrinsic, k1, "Hi There".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("9294727a3638bb1c13f48ef8158bfc9d");
        assertThat(hmac(intrinsic, "Jefe".getBytes(StandardCharsets.US_ASCII),
                "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("750c783e6ab0b503eaa86e310a5db738");
        assertThat(hmac(intrinsic, k3, d3)).isEqualTo("56be34521d144c88dbb8c733f0e8b3f6");
        assertThat(hmac(intrinsic, k6, "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd");
    }

    private static String hmac(boolean intrinsic, byte[] key, byte[] data) {
        Md5 m = new Md5(intrinsic);
        RadiusSecret s = RadiusSecret.of(key);
        m.hmacStart(s);
        m.update(data);
        byte[] out = new byte[16];
        m.hmacFinish(s, out);
        return HEX.formatHex(out);
    }

    /** Random lengths around the block and padding edges, fed in random pieces from arrays, heap and direct buffers. */
    @ParameterizedTest(name = "intrinsic {0}")
    @ValueSource(booleans = {true, false})
    void matchesTheJdkOverRandomPiecesOfHeapAndDirectBuffers(boolean intrinsic) throws Exception {
        SplittableRandom r = new SplittableRandom(15);
        MessageDigest jdk = MessageDigest.getInstance("MD5");
        Md5 m = new Md5(intrinsic);
        byte[] out = new byte[16];
        ByteBuf direct = Unpooled.directBuffer(5000);
        ByteBuf heap = Unpooled.buffer(5000);
        try {
            for (int round = 0; round < 3000; round++) {
                int len = round < 200 ? round : r.nextInt(4200);
                byte[] data = new byte[len];
                r.nextBytes(data);
                int off = r.nextInt(8);
                direct.clear().writeZero(off).writeBytes(data);
                heap.clear().writeZero(off).writeBytes(data);
                m.reset();
                for (int i = 0; i < len; ) {
                    int n = Math.min(len - i, 1 + r.nextInt(90));
                    switch (r.nextInt(3)) {
                        case 0 -> m.update(data, i, n);
                        case 1 -> m.update(direct, off + i, n);
                        default -> m.update(heap, off + i, n);
                    }
                    i += n;
                }
                m.digest(out);
                assertThat(HEX.formatHex(out)).as("length %d", len).isEqualTo(HEX.formatHex(jdk.digest(data)));
            }
        } finally {
            direct.release();
            heap.release();
        }
    }
}
