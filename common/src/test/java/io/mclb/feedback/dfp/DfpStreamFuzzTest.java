package io.mclb.feedback.dfp;

import static io.mclb.feedback.dfp.DfpWire.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: a DFP TCP stream from an agent ({@link DfpFrameDecoder}, {@link DfpMessage},
 * {@link DfpSecurity}); seeds in fuzz/dfp/. The input's first octet picks the TCP segment size,
 * the rest is the stream. Whatever arrives: no exception leaves the pipeline; every message
 * passed up re-wraps and answers its TLV accessors from inside itself; the messages passed up
 * are a prefix of the stream, octet for octet; and the stream is refused at most once, after
 * which the connection is closed and nothing more is passed up.
 */
@Tag("fuzz")
class DfpStreamFuzzTest {
    private static final byte[] PASSWORD = "dfp-secret".getBytes(StandardCharsets.US_ASCII);

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("dfp");
    }

    private static final class Sink extends ChannelInboundHandlerAdapter {
        final ByteBuf passed = Unpooled.buffer();
        final DfpMessage m = new DfpMessage();
        final DfpSecurity security = new DfpSecurity();
        int refusals;
        boolean readAfterRefusal;
        long sink;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                readAfterRefusal |= refusals > 0;
                assertThat(m.wrap(frame)).as("a message passed up re-wraps").isNull();
                read();
                passed.writeBytes(frame, frame.readerIndex(), frame.readableBytes());
            } finally {
                frame.release();
            }
        }

        private void read() {
            sink += m.type() + m.length() + (security.verify(m, PASSWORD) ? 1 : 0) + (DfpSecurity.signed(m) ? 1 : 0);
            for (int at = m.firstTlv(); at >= 0; at = m.nextTlv(at)) {
                switch (m.tlvType(at)) {
                    case TLV_LOAD -> {
                        sink += m.loadPort(at) + m.loadProtocol(at);
                        for (int i = 0; i < m.loadHosts(at); i++) {
                            sink += m.hostAddress(at, i) + m.hostBindId(at, i) + m.hostWeight(at, i);
                        }
                    }
                    case TLV_KEEP_ALIVE -> sink += m.keepAliveSeconds(at);
                    case TLV_BIND_ID_TABLE -> {
                        sink += m.bindServer(at) + m.bindPort(at) + m.bindProtocol(at);
                        for (int i = 0; i < m.bindEntries(at); i++) {
                            sink += m.bindEntryId(at, i) + m.bindEntryNetwork(at, i) + m.bindEntryMask(at, i);
                        }
                    }
                    default -> sink += m.tlvLength(at);
                }
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof DfpFrameDecoder.Refused r) {
                assertThat(r.reason()).isNotNull();
                refusals++;
            }
        }
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void stream(byte[] input) {
        int segment = input.length == 0 ? 1 : 1 + (input[0] & 0xFF);
        Sink sink = new Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new DfpFrameDecoder(), sink);
        try {
            for (int i = 1; i < input.length && ch.isOpen(); i += segment) {
                ch.writeInbound(Unpooled.wrappedBuffer(input, i, Math.min(segment, input.length - i)));
            }
            ch.finish();
            ch.checkException();
            assertThat(sink.refusals).isLessThanOrEqualTo(1);
            assertThat(sink.readAfterRefusal).isFalse();
            byte[] passed = ByteBufUtil.getBytes(sink.passed);
            byte[] stream = input.length == 0 ? input : java.util.Arrays.copyOfRange(input, 1, input.length);
            assertThat(passed.length).isLessThanOrEqualTo(stream.length);
            assertThat(passed).isEqualTo(java.util.Arrays.copyOf(stream, passed.length));
            if (sink.refusals == 1) {
                assertThat(ch.isOpen()).as("a refused stream is closed").isFalse();
            }
        } finally {
            sink.passed.release();
            ch.finishAndReleaseAll();
        }
    }
}
