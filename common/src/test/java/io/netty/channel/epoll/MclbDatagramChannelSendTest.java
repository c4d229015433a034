package io.netty.channel.epoll;

import io.mclb.net.DatagramEnvelopes;
import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link MclbDatagramChannel#send}, the relays' way out: datagrams wait on the channel (no
 * pipeline, no outbound buffer) until {@link MclbDatagramChannel#flushSends}, then leave each once
 * to its own recipient and are released; what the queue cannot take goes through the pipeline as
 * before; a datagram the kernel refuses is released and reported as Netty's write reports it
 * (exceptionCaught) without stopping the rest; while the socket is not writable they wait for
 * its writability event; past the bound the caller keeps the datagram; a
 * close releases what waited. Real loopback sockets, the data path's own bootstrap.
 */
class MclbDatagramChannelSendTest {
    private EventLoopGroup group;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        assumeTrue(MclbDatagramChannel.isAvailable() && MmsgVector.AVAILABLE, "mclb's epoll channel and helper load here");
        Transports.use(TransportKind.EPOLL);
        group = Transports.newGroup(1, "mclb-send-test");
    }

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Transports.use(TransportKind.AUTO);
    }

    private MclbDatagramChannel open(InetAddress lo) throws Exception {
        MclbDatagramChannel ch = (MclbDatagramChannel) UdpSockets.upstream(lo).group(group).handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
                errors.add(cause);
            }
        }).bind(UdpSockets.ephemeral(lo)).sync().channel();
        return ch;
    }

    private static ByteBuf direct(MclbDatagramChannel ch, String text) {
        return ch.alloc().directBuffer().writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** On the loop: sends {@code n} direct datagrams {@code prefix + i} to {@code to(i)}, their contents kept in {@code into}. */
    private static List<MclbDatagramChannel.Send> queue(MclbDatagramChannel ch, int n, String prefix,
                                                        IntFunction<InetSocketAddress> to, List<ByteBuf> into) {
        List<MclbDatagramChannel.Send> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ByteBuf content = direct(ch, prefix + i);
            into.add(content);
            results.add(ch.send(content, to.apply(i)));
        }
        return results;
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void queuedDatagramsLeaveAtTheFlushEachOnceToItsRecipientAndAreReleased(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        MclbDatagramChannel ch = open(lo);
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel b = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel heap = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            InetSocketAddress[] to = {(InetSocketAddress) a.getLocalAddress(), (InetSocketAddress) b.getLocalAddress()};
            DatagramEnvelopes envelopes = new DatagramEnvelopes(ch.eventLoop());
            List<ByteBuf> contents = new ArrayList<>();
            List<MclbDatagramChannel.Send> results = ch.eventLoop().submit(() -> {
                List<MclbDatagramChannel.Send> r = queue(ch, 40, "s", i -> to[i % 2], contents);
                // a heap buffer cannot be pointed at: it goes the pipeline's way, copied as before
                ByteBuf onHeap = Unpooled.copiedBuffer("heap", StandardCharsets.US_ASCII);
                r.add(ch.send(onHeap, (InetSocketAddress) heap.getLocalAddress()));
                envelopes.send(ch, onHeap, (InetSocketAddress) heap.getLocalAddress());
                DatagramEnvelopes.flush(ch);
                return r;
            }).get(10, TimeUnit.SECONDS);
            assertThat(results.subList(0, 40)).containsOnly(MclbDatagramChannel.Send.QUEUED);
            assertThat(results.get(40)).isEqualTo(MclbDatagramChannel.Send.USE_PIPELINE);
            List<String> wantA = new ArrayList<>();
            List<String> wantB = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                (i % 2 == 0 ? wantA : wantB).add("s" + i);
            }
            assertThat(MclbDatagramChannelTest.drain(a, 20)).containsExactlyElementsOf(wantA);
            assertThat(MclbDatagramChannelTest.drain(b, 20)).as("each once, in order").containsExactlyElementsOf(wantB);
            assertThat(MclbDatagramChannelTest.drain(heap, 1)).containsExactly("heap");
            assertThat(contents).as("released once the kernel took them").allMatch(c -> c.refCnt() == 0);
            assertThat(errors).isEmpty();
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void aDatagramTheKernelRefusesIsReleasedAndReportedAndTheOthersStillGo() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        MclbDatagramChannel ch = open(lo);
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            InetSocketAddress ok = (InetSocketAddress) a.getLocalAddress();
            InetSocketAddress refused = new InetSocketAddress(lo, 0); // udp_sendmsg: EINVAL for port 0
            List<ByteBuf> contents = new ArrayList<>();
            List<MclbDatagramChannel.Send> results = ch.eventLoop().submit(() -> {
                List<MclbDatagramChannel.Send> r = queue(ch, 6, "r", i -> i == 2 || i == 3 ? refused : ok, contents);
                ch.flushSends();
                return r;
            }).get(10, TimeUnit.SECONDS);
            assertThat(results).containsOnly(MclbDatagramChannel.Send.QUEUED);
            assertThat(MclbDatagramChannelTest.drain(a, 4)).containsExactly("r0", "r1", "r4", "r5");
            assertThat(errors).as("one error per refused datagram, as Netty's void promise reports a failed write")
                    .hasSize(2).allMatch(e -> e instanceof java.io.IOException && e.getMessage().contains("sendmmsg"));
            assertThat(contents).allMatch(c -> c.refCnt() == 0);
        } finally {
            ch.close().sync();
        }
    }

    /**
     * Back-pressure: with EPOLLOUT armed (as a send that met a full socket buffer leaves it) a flush
     * sends nothing; the kernel's writability event then sends what waited, once, and disarms it.
     * Loopback never fills a send buffer (its transmit orphans each datagram), so the test arms
     * the flag itself; the EAGAIN that arms it in production is sendmmsg returning 0.
     */
    @Test
    void whileWaitingForWritabilityAFlushSendsNothingAndTheWritableEventSendsWhatWaited() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        MclbDatagramChannel ch = open(lo);
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            InetSocketAddress to = (InetSocketAddress) a.getLocalAddress();
            List<ByteBuf> contents = new ArrayList<>();
            boolean heldBack = ch.eventLoop().submit(() -> {
                ch.setFlag(Native.EPOLLOUT);
                queue(ch, 5, "w", i -> to, contents);
                ch.flushSends();
                return contents.stream().allMatch(c -> c.refCnt() == 1);
            }).get(10, TimeUnit.SECONDS);
            assertThat(heldBack).as("the flush waits for writability").isTrue();
            assertThat(MclbDatagramChannelTest.drain(a, 5)).containsExactly("w0", "w1", "w2", "w3", "w4");
            assertThat(contents).allMatch(c -> c.refCnt() == 0);
            assertThat(ch.eventLoop().submit(() -> ch.isFlagSet(Native.EPOLLOUT)).get(10, TimeUnit.SECONDS))
                    .as("disarmed once nothing waits").isFalse();
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void pastTheBoundTheCallerKeepsTheDatagramAndACloseReleasesWhatWaited() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        MclbDatagramChannel ch = open(lo);
        InetSocketAddress to = new InetSocketAddress(lo, 9); // never flushed: nothing is sent
        List<ByteBuf> queued = new ArrayList<>();
        ByteBuf over = ch.eventLoop().submit(() -> {
            assertThat(queue(ch, SendQueue.MAX, "q", i -> to, queued)).containsOnly(MclbDatagramChannel.Send.QUEUED);
            ByteBuf extra = direct(ch, "over");
            assertThat(ch.send(extra, to)).isEqualTo(MclbDatagramChannel.Send.QUEUE_FULL);
            return extra;
        }).get(10, TimeUnit.SECONDS);
        try {
            assertThat(over.refCnt()).as("not taken: still the caller's").isEqualTo(1);
            assertThat(queued).allMatch(c -> c.refCnt() == 1);
            ch.close().sync();
            assertThat(queued).as("released by the close").allMatch(c -> c.refCnt() == 0);
            assertThat(ch.eventLoop().submit(() -> ch.send(over, to)).get(10, TimeUnit.SECONDS))
                    .as("a closed channel leaves it to the pipeline, which fails and releases it as before")
                    .isEqualTo(MclbDatagramChannel.Send.USE_PIPELINE);
        } finally {
            over.release();
        }
    }
}
