package io.mclb.ha.replication;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the replication stream as either side reads it, the length-field framing the
 * standby and the active put in front of their handlers ({@code LengthFieldBasedFrameDecoder}
 * with {@link FrameCodec#MAX_FRAME}) and {@link FrameCodec#verify}; seeds in fuzz/replication/
 * (streams the active writes: HELLO, PUT, REMOVE, snapshot, STATE, CONFIG, heartbeat frames).
 * The input's first octet picks the TCP segment size, the rest is the stream. Whatever arrives:
 * the only failure the pipeline raises is {@link TooLongFrameException} (which both sides count
 * as a malformed refusal); every frame is whole (its length field matched), verify answers it
 * without throwing, and only a frame signed with the session key verifies: the seeds, signed
 * with it, do; the fuzzer's changes to a signed frame do not.
 */
@Tag("fuzz")
class ReplicationStreamFuzzTest {
    private static final byte[] NONCE = new byte[FrameCodec.NONCE];
    private static final Set<ByteBuffer> SEEDS = seeds().map(ByteBuffer::wrap).collect(Collectors.toSet());

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("replication");
    }

    /** What a seed stream holds, and the codec that wrote it: the password and the session nonce are fixed. */
    static FrameCodec sessionCodec() {
        FrameCodec c = new FrameCodec("repl-secret");
        c.useSessionKey(NONCE);
        return c;
    }

    private static final class Frames extends ChannelInboundHandlerAdapter {
        final FrameCodec codec = sessionCodec();
        int frames;
        int verified;
        Throwable failure;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf f = (ByteBuf) msg;
            try {
                frames++;
                if (codec.verify(f)) {
                    verified++;
                }
            } finally {
                f.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
            ctx.close();
        }
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void stream(byte[] input) {
        int segment = input.length == 0 ? 1 : 1 + (input[0] & 0xFF) * 16;
        Frames h = new Frames();
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(FrameCodec.MAX_FRAME, 0, 4, 0, 4), h);
        try {
            for (int i = 1; i < input.length && ch.isOpen(); i += segment) {
                ch.writeInbound(Unpooled.wrappedBuffer(input, i, Math.min(segment, input.length - i)));
            }
            ch.finish();
            if (h.failure != null) {
                Throwable t = h.failure instanceof DecoderException && h.failure.getCause() != null
                    ? h.failure.getCause() : h.failure;
                assertThat(t).isInstanceOf(TooLongFrameException.class);
            }
            assertThat(h.verified).isLessThanOrEqualTo(h.frames);
            if (SEEDS.contains(ByteBuffer.wrap(input))) {
                assertThat(h.verified).as("every frame of a seed verifies").isEqualTo(h.frames).isPositive();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
