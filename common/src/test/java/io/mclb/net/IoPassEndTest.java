package io.mclb.net;

import io.mclb.testing.HeldLoop;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The end of a loop's I/O pass on each transport: work queued while the loop reads the sockets
 * one wake-up reported runs once, after all of them were read (so the relays' flush of that
 * wake-up is one write per socket, not one per socket read); outside a pass it runs at once; and
 * a thread that is not such a loop has none.
 */
class IoPassEndTest {
    private EventLoopGroup group;

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Transports.use(TransportKind.AUTO);
    }

    private EventLoop loopOf(TransportKind kind) {
        assumeTrue(kind != TransportKind.EPOLL || Epoll.isAvailable(), "epoll loads here");
        assumeTrue(kind != TransportKind.IO_URING || IoUring.isAvailable(), "io_uring loads here");
        Transports.use(kind);
        group = Transports.newGroup(1, "pass-end-test");
        return group.next();
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"EPOLL", "IO_URING", "NIO"})
    void workQueuedWhileReadingOneWakeUpRunsOnceAfterEverySocketOfItWasRead(TransportKind kind) throws Exception {
        EventLoop loop = loopOf(kind);
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Runnable end = () -> events.add("end");
        boolean[] queued = new boolean[1];
        List<Channel> sockets = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            sockets.add(new Bootstrap().group(loop).channelFactory(Transports.relayDatagramFactory(lo))
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext c, Object msg) {
                            events.add("read " + name);
                            ((DatagramPacket) msg).release();
                        }

                        @Override
                        public void channelReadComplete(ChannelHandlerContext c) {
                            if (!queued[0]) { // as a relay does: one queued flush per pass
                                queued[0] = true;
                                IoPassEnd.ofThisLoop().runAtEnd(() -> {
                                    queued[0] = false;
                                    end.run();
                                });
                            }
                        }
                    }).bind(new InetSocketAddress(lo, 0)).sync().channel());
        }
        try (DatagramChannel peer = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            // one datagram lands on each socket while the loop is held: its next wait reports all three
            try (HeldLoop held = HeldLoop.hold(loop)) {
                for (Channel s : sockets) {
                    peer.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), s.localAddress());
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("end"));
            assertThat(events).as("three reads, then the pass's work once")
                    .hasSize(4).endsWith("end").contains("read a", "read b", "read c");
        } finally {
            for (Channel s : sockets) {
                s.close().sync();
            }
        }
    }

    @Test
    void outsideAPassTheWorkRunsAtOnceAndOtherThreadsHaveNone() throws Exception {
        EventLoop loop = loopOf(Transports.use(TransportKind.AUTO).kind());
        List<String> ran = new ArrayList<>();
        loop.submit(() -> {
            IoPassEnd.ofThisLoop().runAtEnd(() -> ran.add("work"));
            ran.add("after");
        }).sync();
        assertThat(ran).as("a task is not an I/O pass: the work ran before runAtEnd returned").containsExactly("work", "after");
        assertThat(IoPassEnd.ofThisLoop()).as("the test thread is no loop").isNull();
    }
}
