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
 * The RADIUS module's crypto for one proxied transaction, as {@code RadiusInspector} runs it on
 * direct buffers: the NAS's request verified with the NAS's secret and re-signed for the real,
 * then the real's answer verified with the real's secret and re-signed for the NAS. Packets as
 * {@code mclb loadgen radius} and {@code mclb sim radius} send them (Message-Authenticator on):
 * an Access-Request (User-Name, User-Password, Calling-Station-Id, NAS-IP-Address) and its
 * Access-Accept (Framed-IP-Address), an Accounting-Request (Interim-Update) and its
 * Accounting-Response. Each invocation copies the two packets from templates first (a
 * 100-octet copy, the same in every build), so the figure is one transaction's re-signing; the
 * Access-Request repeats its upstream authenticator (the retransmission path) so that the
 * template answer verifies. Only the codec's public API: the same class runs against older builds.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RadiusProxyPairBenchmark {
    private final RadiusSecret nas = RadiusSecret.ofString("nas-secret");
    private final RadiusSecret real = RadiusSecret.ofString("aaa-secret");
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket p = new RadiusPacket();
    private final byte[] nasAuth = new byte[16];
    private final byte[] upstreamAuth = new byte[16];
    private final byte[] acctUpstreamAuth = new byte[16];
    private byte[] accessTemplate;
    private byte[] acceptTemplate;
    private byte[] acctTemplate;
    private byte[] acctResponseTemplate;
    private final ByteBuf request = Unpooled.directBuffer(512);
    private final ByteBuf answer = Unpooled.directBuffer(512);

    @Setup
    public void setup() {
        for (int i = 0; i < 16; i++) {
            upstreamAuth[i] = (byte) (0x40 + i);
        }
        ByteBuf b = Unpooled.buffer(512);
        header(b, 1, 33);
        for (int i = 4; i < 20; i++) {
            b.setByte(i, 0x11 * i);
        }
        attr(b, 1, "491700012345@mclb".getBytes(StandardCharsets.US_ASCII));
        attr(b, 2, new byte[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6});
        attr(b, 31, "491700012345".getBytes(StandardCharsets.US_ASCII));
        attr(b, 4, new byte[] {127, 0, 0, 1});
        attr(b, 80, new byte[16]);
        finish(b);
        check(p.wrap(b));
        crypto.signMessageAuthenticator(p, nas, 1, null);
        accessTemplate = bytes(b);

        b = Unpooled.buffer(512);
        header(b, 2, 7);
        attr(b, 8, new byte[] {10, 64, 0, 1});
        attr(b, 80, new byte[16]);
        finish(b);
        check(p.wrap(b));
        crypto.signMessageAuthenticator(p, real, 1, upstreamAuth);
        crypto.signResponse(p, upstreamAuth, real);
        acceptTemplate = bytes(b);

        b = Unpooled.buffer(512);
        header(b, 4, 34);
        attr(b, 40, new byte[] {0, 0, 0, 3});
        attr(b, 1, "491700012345@mclb".getBytes(StandardCharsets.US_ASCII));
        attr(b, 31, "491700012345".getBytes(StandardCharsets.US_ASCII));
        attr(b, 8, new byte[] {10, 64, 0, 1});
        attr(b, 44, "mclb-0001e240".getBytes(StandardCharsets.US_ASCII));
        attr(b, 4, new byte[] {127, 0, 0, 1});
        attr(b, 80, new byte[16]);
        finish(b);
        check(p.wrap(b));
        crypto.signMessageAuthenticator(p, nas, 4, null);
        crypto.signAccountingRequest(p, nas);
        acctTemplate = bytes(b);
        // the upstream Accounting-Request's authenticator is computed, not chosen: read it back
        request.clear().writeBytes(acctTemplate);
        check(p.wrap(request));
        crypto.reSignVerifiedRequest(p, nas, real, 7, nasAuth, null);
        p.authenticator(acctUpstreamAuth);

        b = Unpooled.buffer(512);
        header(b, 5, 7);
        attr(b, 80, new byte[16]);
        finish(b);
        check(p.wrap(b));
        crypto.signMessageAuthenticator(p, real, 4, acctUpstreamAuth);
        crypto.signResponse(p, acctUpstreamAuth, real);
        acctResponseTemplate = bytes(b);

        check(accessRequestAndAccept());
        check(accountingRequestAndResponse());
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    @Benchmark
    public DropReason accessRequestAndAccept() {
        request.clear().writeBytes(accessTemplate);
        DropReason bad = p.wrap(request);
        if (bad == null) {
            bad = crypto.verifyRequest(p, nas);
        }
        if (bad != null) {
            return bad;
        }
        crypto.reSignVerifiedRequest(p, nas, real, 7, nasAuth, upstreamAuth);
        answer.clear().writeBytes(acceptTemplate);
        bad = p.wrap(answer);
        if (bad == null) {
            bad = crypto.verifyResponse(p, 1, real, upstreamAuth);
        }
        if (bad != null) {
            return bad;
        }
        crypto.reSignVerifiedResponse(p, 1, real, upstreamAuth, nas, nasAuth, 33);
        return null;
    }

    @Benchmark
    public DropReason accountingRequestAndResponse() {
        request.clear().writeBytes(acctTemplate);
        DropReason bad = p.wrap(request);
        if (bad == null) {
            bad = crypto.verifyRequest(p, nas);
        }
        if (bad != null) {
            return bad;
        }
        crypto.reSignVerifiedRequest(p, nas, real, 7, nasAuth, null);
        answer.clear().writeBytes(acctResponseTemplate);
        bad = p.wrap(answer);
        if (bad == null) {
            bad = crypto.verifyResponse(p, 4, real, acctUpstreamAuth);
        }
        if (bad != null) {
            return bad;
        }
        crypto.reSignVerifiedResponse(p, 4, real, acctUpstreamAuth, nas, nasAuth, 34);
        return null;
    }
}
