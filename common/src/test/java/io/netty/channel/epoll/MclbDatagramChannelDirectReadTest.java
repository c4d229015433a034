package io.netty.channel.epoll;

import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.net.UdpSockets;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link MclbDatagramChannel#readDirectly}: while the reader is the pipeline's first handler each
 * datagram reaches it through {@code datagramRead} (bytes, sender and recipient as the pipeline
 * would give them) and none through {@code channelRead}, the batch end still through the pipeline;
 * with a handler in front of it the datagrams go through the pipeline again, so that handler sees
 * them.
 */
class MclbDatagramChannelDirectReadTest {
    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        Transports.use(TransportKind.EPOLL);
        group = Transports.newGroup(1, "mclb-direct-read-test");
    }

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Transports.use(TransportKind.AUTO);
    }

    /** Records how each datagram arrived; installs itself as its channel's direct reader when active. */
    private static final class Recorder extends ChannelInboundHandlerAdapter implements MclbDatagramChannel.DirectReader {
        final List<String> direct = Collections.synchronizedList(new ArrayList<>());
        final List<String> piped = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger batchEnds = new AtomicInteger();

        @Override
        public void channelActive(ChannelHandlerContext c) {
            ((MclbDatagramChannel) c.channel()).readDirectly(this);
            c.fireChannelActive();
        }

        @Override
        public void datagramRead(MclbDatagramChannel channel, DatagramPacket p) {
            direct.add(describe(p));
            p.release();
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            DatagramPacket p = (DatagramPacket) msg;
            piped.add(describe(p));
            p.release();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext c) {
            batchEnds.incrementAndGet();
        }

        private static String describe(DatagramPacket p) {
            return p.sender() + " " + p.recipient() + " " + p.content().toString(StandardCharsets.US_ASCII);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void theFirstHandlerTakesEveryDatagramDirectlyAndTheBatchEndThroughThePipeline(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        Recorder r = new Recorder();
        Channel ch = UdpSockets.listener(lo).group(group).handler(r).bind(new InetSocketAddress(lo, 0)).sync().channel();
        try {
            List<String> sent = sendFrom(lo, (InetSocketAddress) ch.localAddress(), 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> r.direct.size() >= sent.size());
            assertThat(r.direct).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(r.piped).as("nothing through channelRead").isEmpty();
            assertThat(r.batchEnds.get()).as("channelReadComplete per batch, through the pipeline").isPositive();
        } finally {
            ch.close().sync();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aHandlerInFrontOfTheReaderGetsTheDatagramsThroughThePipeline(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        Recorder r = new Recorder();
        List<String> seenInFront = Collections.synchronizedList(new ArrayList<>());
        Channel ch = UdpSockets.listener(lo).group(group).handler(r).bind(new InetSocketAddress(lo, 0)).sync().channel();
        ch.eventLoop().submit(() -> ch.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                seenInFront.add(((DatagramPacket) msg).content().toString(StandardCharsets.US_ASCII));
                c.fireChannelRead(msg);
            }
        })).sync();
        try {
            List<String> sent = sendFrom(lo, (InetSocketAddress) ch.localAddress(), 50);
            await().atMost(Duration.ofSeconds(10)).until(() -> r.piped.size() >= sent.size());
            assertThat(r.piped).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(seenInFront).hasSize(sent.size());
            assertThat(r.direct).as("the reader is not the first handler: no direct reads").isEmpty();
        } finally {
            ch.close().sync();
        }
    }

    private static List<String> sendFrom(InetAddress lo, InetSocketAddress to, int count) throws Exception {
        List<String> sent = new ArrayList<>();
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            for (int i = 0; i < count; i++) {
                String text = "d" + i;
                a.send(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), to);
                sent.add(a.getLocalAddress() + " " + to + " " + text);
            }
        }
        return sent;
    }
}
