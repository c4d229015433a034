package io.mclb.perf.radius;

import io.mclb.net.DropReason;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import static io.mclb.perf.radius.BenchPackets.attr;
import static io.mclb.perf.radius.BenchPackets.check;
import static io.mclb.perf.radius.BenchPackets.finish;
import static io.mclb.perf.radius.BenchPackets.header;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decode + re-sign in place, per packet, as the RADIUS balancer's data path does: an
 * Accounting-Request (verify MD5 with the NAS secret, new id, MD5 for the real) and an Access-Request
 * with User-Password and Message-Authenticator (HMAC verify, random authenticator, password re-hide,
 * HMAC sign). Both sign with the one secret pair so each invocation re-signs A->B then B->A and the
 * buffer stays valid; the figure is for one re-sign.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RadiusResignBenchmark {
    private final RadiusSecret a = RadiusSecret.ofString("nas-secret-A");
    private final RadiusSecret b = RadiusSecret.ofString("real-secret-B");
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket packet = new RadiusPacket();
    private final byte[] original = new byte[16];
    private ByteBuf accounting;
    private ByteBuf access;
    private boolean flip;

    @Setup
    public void setup() {
        accounting = Unpooled.directBuffer(512);
        header(accounting, 4, 1);
        attr(accounting, 40, new byte[] {0, 0, 0, 1});
        attr(accounting, 8, new byte[] {10, 20, 30, 40});
        attr(accounting, 1, "alice@apn".getBytes(StandardCharsets.US_ASCII));
        attr(accounting, 44, "sess-0001".getBytes(StandardCharsets.US_ASCII));
        byte[] vsa = new byte[4 + 2 + 15];
        vsa[2] = 0x28;
        vsa[3] = (byte) 0xAF;
        vsa[4] = 1;
        vsa[5] = 17;
        System.arraycopy("262010000000001".getBytes(StandardCharsets.US_ASCII), 0, vsa, 6, 15);
        attr(accounting, 26, vsa);
        finish(accounting);
        check(packet.wrap(accounting));
        crypto.signAccountingRequest(packet, a);

        access = Unpooled.directBuffer(512);
        header(access, 1, 2);
        attr(access, 1, "bob".getBytes(StandardCharsets.US_ASCII));
        attr(access, 2, new byte[16]);
        attr(access, 31, "491701234567".getBytes(StandardCharsets.US_ASCII));
        attr(access, 80, new byte[16]);
        finish(access);
        check(packet.wrap(access));
        crypto.signMessageAuthenticator(packet, a, 1, null);
        // The A->B->A cycle must keep verifying, or we would time drops (even count: flip ends unchanged).
        for (int i = 0; i < 4; i++) {
            check(resign(accounting));
        }
        for (int i = 0; i < 4; i++) {
            check(resign(access));
        }
    }

    private DropReason resign(ByteBuf buf) {
        DropReason r = packet.wrap(buf);
        if (r != null) {
            return r;
        }
        flip = !flip;
        return flip ? crypto.reSignRequest(packet, a, b, 7, original)
                : crypto.reSignRequest(packet, b, a, 7, original);
    }

    @Benchmark
    public DropReason accountingRequest() {
        return resign(accounting);
    }

    @Benchmark
    public DropReason accessRequestWithPasswordAndMessageAuthenticator() {
        return resign(access);
    }
}
