package io.netty.channel.epoll;

import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.netty.channel.epoll.MclbDatagramChannelSendTest.direct;
import static io.netty.channel.epoll.MclbDatagramChannelSendTest.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link MclbDatagramChannel#flushSends} once per I/O pass of the loop ({@link PassSends}): the
 * small datagrams of every flush of a pass are copied into the loop's arena and released at the
 * flush (a relay's receive buffer is not held past its read), and each socket sends all of them in
 * one sendmmsg when the pass ends, in the order they were sent, to the recipient each named; a
 * large datagram sends what its socket queued at once, still in order; a socket whose buffer
 * fills before the pass ends keeps its datagrams in buffers of its own, so the arena's next pass
 * cannot overwrite them. Real loopback sockets, the data path's own bootstrap.
 */
class MclbDatagramChannelPassTest {
    private EventLoopGroup group;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        assumeTrue(MclbDatagramChannel.isAvailable() && MmsgVector.AVAILABLE, "mclb's epoll channel and helper load here");
        Transports.use(TransportKind.EPOLL);
        group = Transports.newGroup(1, "mclb-pass-test");
    }

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Transports.use(TransportKind.AUTO);
    }

    private MclbDatagramChannel open(InetAddress family) throws Exception {
        return (MclbDatagramChannel) UdpSockets.upstream(family).group(group).handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
                errors.add(cause);
            }
        }).bind(UdpSockets.ephemeral(family)).sync().channel();
    }

    private static DatagramChannel peer(InetAddress at) throws Exception {
        DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress(at, 0));
        c.configureBlocking(false);
        return c;
    }

    private static InetSocketAddress at(DatagramChannel c) throws Exception {
        return (InetSocketAddress) c.getLocalAddress();
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> work) throws Exception {
        return group.next().submit(work).get(10, TimeUnit.SECONDS);
    }

    /** As a relay's pass writes: answers of three upstream reads on one socket, requests on another. */
    @ParameterizedTest
    @CsvSource({"127.0.0.1, 127.0.0.1", "::1, ::1", "::, 127.0.0.1"})
    void eachSocketSendsAllItsDatagramsOfAPassInOneSendmmsgAndReleasesThemAtTheFlush(String bindHost, String peerHost)
            throws Exception {
        InetAddress family = InetAddress.getByName(bindHost);
        InetAddress peerAt = InetAddress.getByName(peerHost);
        MclbDatagramChannel vip = open(family);
        MclbDatagramChannel up = open(family);
        try (DatagramChannel a = peer(peerAt); DatagramChannel b = peer(peerAt); DatagramChannel real = peer(peerAt)) {
            InetSocketAddress[] clients = {at(a), at(b)};
            InetSocketAddress toReal = at(real);
            long vipBefore = onLoop(vip::sendmmsgCalls);
            long upBefore = onLoop(up::sendmmsgCalls);
            List<ByteBuf> contents = new ArrayList<>();
            List<Object> duringThePass = onLoop(() -> {
                for (int read = 0; read < 3; read++) {
                    queue(vip, 4, "v" + read + "-", i -> clients[i % 2], contents);
                    vip.flushSends();
                }
                queue(up, 2, "u", i -> toReal, contents);
                up.flushSends();
                boolean released = contents.stream().allMatch(c -> c.refCnt() == 0);
                boolean nothingSentYet = a.receive(ByteBuffer.allocate(64)) == null && real.receive(ByteBuffer.allocate(64)) == null;
                return List.of(released, nothingSentYet, PassSends.ofThisLoop().waiting());
            });
            assertThat(duringThePass).as("released at the flush, sent when the pass ends, two sockets waiting")
                    .containsExactly(true, true, 2);
            List<String> wantA = new ArrayList<>();
            List<String> wantB = new ArrayList<>();
            for (int read = 0; read < 3; read++) {
                for (int i = 0; i < 4; i++) {
                    (i % 2 == 0 ? wantA : wantB).add("v" + read + "-" + i);
                }
            }
            assertThat(MclbDatagramChannelTest.drain(a, 6)).as("each once, in order").containsExactlyElementsOf(wantA);
            assertThat(MclbDatagramChannelTest.drain(b, 6)).containsExactlyElementsOf(wantB);
            assertThat(MclbDatagramChannelTest.drain(real, 2)).containsExactly("u0", "u1");
            assertThat(onLoop(vip::sendmmsgCalls) - vipBefore).as("three flushes, one sendmmsg").isEqualTo(1);
            assertThat(onLoop(up::sendmmsgCalls) - upBefore).isEqualTo(1);
            assertThat(onLoop(() -> PassSends.ofThisLoop().waiting())).isZero();
            assertThat(errors).isEmpty();
        } finally {
            vip.close().sync();
            up.close().sync();
        }
    }

    @Test
    void aLargeDatagramSendsItsSocketsQueueAtOnceAndOrderHoldsAcrossTheArena() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        MclbDatagramChannel ch = open(lo);
        try (DatagramChannel a = peer(lo)) {
            InetSocketAddress to = at(a);
            String large = "L" + "x".repeat(PassSends.MAX_COPIED);
            long before = onLoop(ch::sendmmsgCalls);
            List<ByteBuf> contents = new ArrayList<>();
            long sentAtOnce = onLoop(() -> {
                queue(ch, 2, "s", i -> to, contents);
                ch.flushSends(); // s0, s1 into the arena
                ByteBuf big = direct(ch, large);
                contents.add(big);
                assertThat(ch.send(big, to)).isEqualTo(MclbDatagramChannel.Send.QUEUED);
                queue(ch, 1, "t", i -> to, contents);
                ch.flushSends(); // too large to copy: s0, s1 from the arena, then L and t0, now
                long now = ch.sendmmsgCalls() - before;
                queue(ch, 1, "u", i -> to, contents);
                ch.flushSends(); // u0 into the arena, sent when the pass ends
                return now;
            });
            assertThat(sentAtOnce).isEqualTo(1);
            assertThat(MclbDatagramChannelTest.drain(a, 5)).containsExactly("s0", "s1", large, "t0", "u0");
            assertThat(contents).as("every buffer released").allMatch(c -> c.refCnt() == 0);
            assertThat(onLoop(ch::sendmmsgCalls) - before).isEqualTo(2);
            assertThat(errors).isEmpty();
        } finally {
            ch.close().sync();
        }
    }

    /**
     * A socket whose buffer is full when the pass ends (EPOLLOUT armed, as sendmmsg returning 0
     * leaves it: loopback never fills a send buffer, so the test arms it) moves its datagrams out
     * of the arena; the next pass then copies other datagrams where they were, and the writability
     * event still sends the first ones intact, in order.
     */
    @Test
    void aSocketFullWhenThePassEndsKeepsItsDatagramsOutOfTheArenasNextPass() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        MclbDatagramChannel full = open(lo);
        MclbDatagramChannel other = open(lo);
        try (DatagramChannel a = peer(lo); DatagramChannel b = peer(lo)) {
            InetSocketAddress toA = at(a);
            InetSocketAddress toB = at(b);
            List<ByteBuf> contents = new ArrayList<>();
            boolean released = onLoop(() -> {
                queue(full, 5, "w", i -> toA, contents);
                full.flushSends();
                full.setFlag(Native.EPOLLOUT);
                // queued after the pass end: runs after it, before the loop polls for writability again
                ((SingleThreadEventLoop) full.eventLoop()).executeAfterEventLoopIteration(() -> {
                    queue(other, 5, "x", i -> toB, contents);
                    other.flushSends();
                });
                return contents.stream().allMatch(c -> c.refCnt() == 0);
            });
            assertThat(released).isTrue();
            assertThat(MclbDatagramChannelTest.drain(b, 5)).containsExactly("x0", "x1", "x2", "x3", "x4");
            assertThat(MclbDatagramChannelTest.drain(a, 5)).as("their own copies, not the arena's next pass")
                    .containsExactly("w0", "w1", "w2", "w3", "w4");
            assertThat(onLoop(() -> full.isFlagSet(Native.EPOLLOUT))).as("disarmed once nothing waits").isFalse();
            assertThat(contents).allMatch(c -> c.refCnt() == 0);
            assertThat(errors).isEmpty();
        } finally {
            full.close().sync();
            other.close().sync();
        }
    }

    @Test
    void aCommitTheArenaCannotHoldChangesNothingAndTheCopiesLeaveIt() {
        assumeTrue(PlatformDependent.hasUnsafe(), "native memory");
        PassSends pass = new PassSends(64);
        SendQueue queue = new SendQueue();
        InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), 9);
        ByteBuf first = Unpooled.directBuffer().writeBytes(new byte[40]);
        ByteBuf second = Unpooled.directBuffer().writeBytes("y".repeat(40).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        try {
            queue.add(first, to);
            queue.add(second, to);
            assertThat(queue.commit(pass)).as("2 x 40 bytes in a 64-byte arena").isFalse();
            assertThat(first.refCnt() + second.refCnt()).as("still in their buffers").isEqualTo(2);
            assertThat(pass.room()).isEqualTo(64);
            queue.releaseOldest(1);
            assertThat(queue.commit(pass)).isTrue();
            assertThat(second.refCnt()).isZero();
            assertThat(pass.room()).isEqualTo(64 - 40);
            assertThat(queue.hasArenaCopies()).isTrue();
            queue.leaveArena(PooledByteBufAllocator.DEFAULT);
            assertThat(queue.hasArenaCopies()).isFalse();
            assertThat(queue.size()).isEqualTo(1);
        } finally {
            queue.releaseAll();
            pass.release();
        }
    }
}
