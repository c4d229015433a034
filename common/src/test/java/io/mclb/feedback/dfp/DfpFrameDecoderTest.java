package io.mclb.feedback.dfp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Cutting a TCP stream into DFP messages: chunking, refusals, and a fuzz with an exact balance. */
class DfpFrameDecoderTest {

    /** What came out of the decoder for one stream. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        final List<byte[]> frames = new ArrayList<>();
        DfpRefusal refused;
        int refusals;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            frames.add(DfpCodecTest.bytes(b));
            b.release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof DfpFrameDecoder.Refused r) {
                refused = r.reason();
                refusals++;
            }
        }
    }

    private static byte[] message(int hosts, int weight) {
        ByteBuf out = Unpooled.buffer();
        List<HostWeight> l = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            l.add(new HostWeight(0x0a000001 + i, 2123, 17, 0, weight));
        }
        new DfpWriter().preferenceInformation(out, l, null);
        return DfpCodecTest.bytes(out);
    }

    private static Sink feed(byte[] stream, int chunk) {
        Sink sink = new Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new DfpFrameDecoder(), sink);
        for (int i = 0; i < stream.length && ch.isOpen(); i += chunk) {
            ch.writeInbound(Unpooled.wrappedBuffer(stream, i, Math.min(chunk, stream.length - i)));
        }
        ch.finish();
        ch.checkException();
        return sink;
    }

    @Test
    void messagesSplitAnywhereOrBatchedComeOutWhole() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        for (int i = 0; i < 5; i++) {
            s.writeBytes(message(i, i * 3));
        }
        byte[] stream = s.toByteArray();
        for (int chunk : new int[] {1, 3, 7, 8, 13, stream.length}) {
            Sink sink = feed(stream, chunk);
            assertThat(sink.frames).as("chunk %d", chunk).hasSize(5);
            assertThat(sink.refused).isNull();
            assertThat(sink.frames.get(4)).isEqualTo(message(4, 12));
        }
    }

    @Test
    void eachInconsistencyIsRefusedOnceAndNothingAfterItIsRead() {
        byte[] good = message(1, 8);
        byte[] badVersion = good.clone();
        badVersion[0] = 2;
        byte[] tooLong = good.clone();
        tooLong[4] = 0x10;
        byte[] overrun = good.clone();
        overrun[11] = (byte) 0xff;
        for (Object[] c : new Object[][] {{badVersion, DfpRefusal.BAD_VERSION}, {tooLong, DfpRefusal.TOO_LONG},
                {overrun, DfpRefusal.TLV_OVERRUN}}) {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            s.writeBytes(good);
            s.writeBytes((byte[]) c[0]);
            s.writeBytes(good);
            Sink sink = feed(s.toByteArray(), 5);
            assertThat(sink.frames).as("%s: only the message before it", c[1]).hasSize(1);
            assertThat(sink.refused).isEqualTo(c[1]);
            assertThat(sink.refusals).isEqualTo(1);
        }
        Sink cut = feed(java.util.Arrays.copyOf(good, good.length - 3), 4);
        assertThat(cut.refused).as("stream ends inside a message").isEqualTo(DfpRefusal.TRUNCATED);
    }

    /**
     * Mutated and random streams: whatever comes out is exactly what an independent reading of the
     * stream finds (same messages, same refusal), every message passed on is consistent, and nothing throws.
     */
    @Test
    void fuzzedStreamsBalanceExactlyAgainstAnIndependentReading() {
        Random rnd = new Random(11);
        int refused = 0;
        for (int round = 0; round < 3000; round++) {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
                s.writeBytes(message(rnd.nextInt(4), rnd.nextInt(65536)));
            }
            byte[] stream = s.toByteArray();
            int mutations = rnd.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                stream[rnd.nextInt(stream.length)] = (byte) rnd.nextInt(256);
            }
            if (rnd.nextInt(10) == 0) {
                stream = new byte[rnd.nextInt(64)];
                rnd.nextBytes(stream);
            }
            Sink sink = feed(stream, 1 + rnd.nextInt(40));
            Expected want = independentReading(stream);
            assertThat(sink.frames).as("round %d", round).hasSize(want.messages);
            assertThat(sink.refused).as("round %d", round).isEqualTo(want.refusal);
            for (byte[] f : sink.frames) {
                assertThat(new DfpMessage().wrap(Unpooled.wrappedBuffer(f))).isNull();
            }
            refused += sink.refused == null ? 0 : 1;
        }
        assertThat(refused).as("the fuzz reaches the refusals").isGreaterThan(500);
    }

    record Expected(int messages, DfpRefusal refusal) {
    }

    /** The stream read by a different method: byte arithmetic over the array, the draft's rules. */
    static Expected independentReading(byte[] s) {
        int at = 0;
        int n = 0;
        while (s.length - at >= 8) {
            if ((s[at] & 0xff) != 1) {
                return new Expected(n, DfpRefusal.BAD_VERSION);
            }
            long len = ((s[at + 4] & 0xffL) << 24) | ((s[at + 5] & 0xff) << 16) | ((s[at + 6] & 0xff) << 8) | (s[at + 7] & 0xff);
            if (len < 8) {
                return new Expected(n, DfpRefusal.BAD_LENGTH);
            }
            if (len > DfpWire.MAX_MESSAGE_LENGTH) {
                return new Expected(n, DfpRefusal.TOO_LONG);
            }
            if (s.length - at < len) {
                return new Expected(n, DfpRefusal.TRUNCATED);
            }
            int end = at + (int) len;
            for (int t = at + 8; t < end; ) {
                if (end - t < 4) {
                    return new Expected(n, DfpRefusal.TLV_OVERRUN);
                }
                int type = ((s[t] & 0xff) << 8) | (s[t + 1] & 0xff);
                int tl = ((s[t + 2] & 0xff) << 8) | (s[t + 3] & 0xff);
                if (tl < 4 || t + tl > end) {
                    return new Expected(n, DfpRefusal.TLV_OVERRUN);
                }
                boolean ok = switch (type) {
                    case 0x0002 -> tl >= 12 && tl == 12 + 8 * (((s[t + 8] & 0xff) << 8) | (s[t + 9] & 0xff));
                    case 0x0101 -> tl == 8;
                    case 0x0001 -> tl == 28;
                    case 0x0301 -> tl >= 16 && tl == 16 + 12 * (((s[t + 12] & 0xff) << 8) | (s[t + 13] & 0xff));
                    default -> true;
                };
                if (!ok) {
                    return new Expected(n, DfpRefusal.BAD_TLV);
                }
                t += tl;
            }
            n++;
            at = end;
        }
        return new Expected(n, at < s.length ? DfpRefusal.TRUNCATED : null);
    }
}
