package io.netty.channel.epoll;

import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.net.UdpSockets;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * mclb's epoll UDP channel over real loopback sockets, bound with the data path's own bootstrap
 * ({@link UdpSockets#listener}: SO_REUSEPORT, IP_FREEBIND, 4 MiB buffers, recvmmsg slots): every
 * datagram arrives with its bytes, its sender and the bound address, in IPv4 and IPv6; a peer's
 * address object is built once; and once warm its reads allocate nothing per datagram, measured on
 * the loop thread as the allocation counter of the JVM sees it, next to Netty's own channel
 * measured the same way (which allocates a packet and an address per datagram), so the meter is
 * shown to see what it must.
 */
class MclbDatagramChannelTest {
    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        Transports.use(TransportKind.EPOLL);
        group = Transports.newGroup(1, "mclb-channel-test");
    }

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Transports.use(TransportKind.AUTO);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void datagramsArriveWithTheirBytesSenderAndRecipientAndAPeerIsOneAddressObject(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        Set<InetSocketAddress> senderObjects = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        Channel ch = UdpSockets.listener(lo).group(group).handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                DatagramPacket p = (DatagramPacket) msg;
                got.add(p.sender() + " " + p.recipient() + " " + p.content().toString(StandardCharsets.US_ASCII));
                senderObjects.add(p.sender());
                p.release();
            }
        }).bind(new InetSocketAddress(lo, 0)).sync().channel();
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel b = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            assertThat(ch).isInstanceOf(MclbDatagramChannel.class);
            InetSocketAddress to = (InetSocketAddress) ch.localAddress();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                DatagramChannel from = i % 2 == 0 ? a : b;
                String text = "d" + i + "x".repeat(i % 97); // lengths 2..100: slots hold each datagram's own length
                from.send(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), to);
                sent.add(from.getLocalAddress() + " " + to + " " + text);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() >= sent.size());
            assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(senderObjects).as("one address object per peer").hasSize(2);
        } finally {
            ch.close().sync();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aFlushSendsEachDatagramOnceToItsOwnRecipientEvenPastAnEmptyOne(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        Channel ch = UdpSockets.upstream(lo).group(group).handler(new ChannelInboundHandlerAdapter())
                .bind(UdpSockets.ephemeral(lo)).sync().channel();
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel b = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            InetSocketAddress[] to = {(InetSocketAddress) a.getLocalAddress(), (InetSocketAddress) b.getLocalAddress()};
            io.mclb.net.DatagramEnvelopes envelopes = new io.mclb.net.DatagramEnvelopes(ch.eventLoop());
            ch.eventLoop().submit(() -> {
                for (int i = 0; i < 40; i++) {
                    String text = i == 17 ? "" : "m" + i; // an empty one mid-batch: Netty's add skips it without a slot
                    ByteBuf content = ch.alloc().directBuffer().writeBytes(text.getBytes(StandardCharsets.US_ASCII));
                    ch.write(envelopes.wrap(content, to[i % 2]), ch.voidPromise());
                }
                ch.flush();
            }).sync();
            List<String> atA = drain(a, 19);
            List<String> atB = drain(b, 20);
            List<String> wantA = new ArrayList<>();
            List<String> wantB = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                if (i != 17) {
                    (i % 2 == 0 ? wantA : wantB).add("m" + i);
                }
            }
            assertThat(atA).containsExactlyElementsOf(wantA);
            assertThat(atB).as("each once, in order, the empty one (as with Netty) not sent").containsExactlyElementsOf(wantB);
        } finally {
            ch.close().sync();
        }
    }

    /** Reads {@code count} datagrams, then checks nothing more arrives within 200 ms (a duplicate). */
    static List<String> drain(DatagramChannel c, int count) throws Exception {
        List<String> got = new ArrayList<>();
        c.configureBlocking(false);
        ByteBuffer in = ByteBuffer.allocate(64);
        try (java.nio.channels.Selector sel = java.nio.channels.Selector.open()) {
            c.register(sel, java.nio.channels.SelectionKey.OP_READ);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, quietUntil)) {
                sel.select(50);
                sel.selectedKeys().clear();
                in.clear();
                while (c.receive(in) != null) {
                    in.flip();
                    got.add(StandardCharsets.US_ASCII.decode(in).toString());
                    in.clear();
                }
                if (got.size() >= count && quietUntil == Long.MAX_VALUE) {
                    quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                }
            }
        }
        return got;
    }

    @Test
    void theDataPathOptionsHoldOnTheSocket() throws Exception {
        InetAddress notHere = InetAddress.getByName("192.0.2.77"); // TEST-NET-1: never a local address
        Channel first = UdpSockets.listener(notHere).group(group).handler(new ChannelInboundHandlerAdapter())
                .bind(new InetSocketAddress(notHere, 0)).sync().channel();
        int port = ((InetSocketAddress) first.localAddress()).getPort();
        Channel second = UdpSockets.listener(notHere).group(group).handler(new ChannelInboundHandlerAdapter())
                .bind(new InetSocketAddress(notHere, port)).sync().channel();
        try {
            assertThat(first.config().getOption(EpollChannelOption.IP_FREEBIND)).as("IP_FREEBIND: bound before owned").isTrue();
            assertThat(second.config().getOption(EpollChannelOption.SO_REUSEPORT)).as("one listener per loop").isTrue();
            assertThat(first.config().getOption(ChannelOption.SO_RCVBUF)).isGreaterThanOrEqualTo(UdpSockets.SOCKET_BUFFER_BYTES);
            assertThat(first.config().getOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE))
                    .isEqualTo(UdpSockets.MAX_DATAGRAM + 1);
        } finally {
            first.close().sync();
            second.close().sync();
        }
    }

    @Test
    void warmReadsAllocateNothingPerDatagramWhereNettysChannelAllocatesAPacketAndAnAddress() throws Exception {
        // Netty's leak detector (level SIMPLE by default) wraps 1 buffer in 128 with a tracker, and
        // each slice of a tracked buffer too: sampled diagnostics, not the read path, so it is off
        // while measuring (perf/README.md "Issue 15" gives the relay's figure with and without it)
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            double ours = bytesPerDatagram(() -> new MclbDatagramChannel(SocketProtocolFamily.INET));
            double oursOnNettysCalls = bytesPerDatagram(() -> new MclbDatagramChannel(SocketProtocolFamily.INET, false));
            double netty = bytesPerDatagram(() -> new EpollDatagramChannel(SocketProtocolFamily.INET));
            assertThat(netty).as("the meter sees Netty's DatagramPacket + InetSocketAddress per datagram").isGreaterThan(48);
            assertThat(ours).as("loop bytes allocated per datagram read (Netty's channel: %.0f)", netty).isLessThan(4);
            assertThat(oursOnNettysCalls).as("the same over Netty's recvmmsg (Netty's channel: %.0f)", netty).isLessThan(4);
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /** Loop-thread bytes allocated per datagram over 20,000 datagrams after 4,000 of warm-up. */
    private double bytesPerDatagram(Supplier<Channel> channel) throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        EventLoop loop = group.next();
        AtomicLong read = new AtomicLong();
        Channel ch = new Bootstrap().group(loop).channelFactory(channel::get)
                .option(ChannelOption.ALLOCATOR, io.netty.buffer.PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new io.netty.channel.FixedRecvByteBufAllocator(2048 * 16))
                .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, 2048)
                .option(ChannelOption.SO_RCVBUF, UdpSockets.SOCKET_BUFFER_BYTES)
                .handler(new ChannelInboundHandlerAdapter() {
                    private long n;

                    @Override
                    public void channelRead(ChannelHandlerContext c, Object msg) {
                        ByteBuf content = ((DatagramPacket) msg).content();
                        n += content.readableBytes() > 0 ? 1 : 0;
                        ((DatagramPacket) msg).release();
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext c) {
                        read.lazySet(n); // one shared write per batch, as the relays do
                    }
                }).bind(new InetSocketAddress(lo, 0)).sync().channel();
        long loopThread = loop.submit(() -> Thread.currentThread().getId()).get();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel b = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            InetSocketAddress to = (InetSocketAddress) ch.localAddress();
            ByteBuffer payload = ByteBuffer.allocateDirect(64);
            send(a, b, payload, to, read, 4_000);
            long before = threads.getThreadAllocatedBytes(loopThread);
            long readBefore = read.get();
            send(a, b, payload, to, read, 20_000);
            long bytes = threads.getThreadAllocatedBytes(loopThread) - before;
            return (double) bytes / (read.get() - readBefore);
        } finally {
            ch.close().sync();
        }
    }

    /** Sends {@code count} datagrams from two peers in bursts of 16, each burst awaited before the next. */
    private static void send(DatagramChannel a, DatagramChannel b, ByteBuffer payload, InetSocketAddress to,
                             AtomicLong read, int count) throws Exception {
        long target = read.get();
        for (int i = 0; i < count; i += 16) {
            for (int j = 0; j < 16; j++) {
                payload.clear();
                (j % 2 == 0 ? a : b).send(payload, to);
            }
            target += 16;
            long t = target;
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(() -> read.get() >= t);
        }
    }

    @Test
    void mclbsRecvmmsgHelperLoadsWhereverTheBuildMadeIt() {
        String lib = "META-INF/native/libmclb-mmsg-" + System.getProperty("os.arch") + ".so";
        assumeTrue(getClass().getClassLoader().getResource(lib) != null, "this build has no " + lib + " (no gcc)");
        assertThat(MmsgVector.UNAVAILABLE_CAUSE).as("built, so it loads and its struct layout is the Java side's").isNull();
        assertThat(MclbDatagramChannel.syscallPath()).isEqualTo("mclb recvmmsg/sendmmsg");
    }

    /**
     * An echo over each syscall path (mclb's helper, Netty's natives): every datagram is read with
     * its bytes and sender and written back to that sender, in one flush per read batch as the
     * relays do. "::" is an IPv6 socket talking to IPv4 peers: senders arrive as ::ffff:a.b.c.d and
     * must come up as the IPv4 address (as Netty reports them), and answers to an IPv4 address
     * must leave as the mapped address. {@code direct}: the answers go as the relays send them
     * ({@link io.mclb.net.DatagramEnvelopes#send}: straight into the send queue on mclb's syscalls,
     * through the pipeline on Netty's), else as pipeline writes.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"true, 127.0.0.1, 127.0.0.1, false", "true, ::1, ::1, false",
        "true, ::, 127.0.0.1, false", "false, 127.0.0.1, 127.0.0.1, false", "false, ::1, ::1, false",
        "false, ::, 127.0.0.1, false", "true, 127.0.0.1, 127.0.0.1, true", "true, ::1, ::1, true",
        "true, ::, 127.0.0.1, true", "false, ::, 127.0.0.1, true"})
    void bothSyscallPathsEchoEveryDatagramToItsSender(boolean own, String bindHost, String peerHost, boolean direct)
            throws Exception {
        assumeTrue(!own || MmsgVector.AVAILABLE, "mclb's recvmmsg helper loads here");
        InetAddress bindTo = InetAddress.getByName(bindHost);
        InetAddress peer = InetAddress.getByName(peerHost);
        SocketProtocolFamily family = bindTo instanceof java.net.Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
        Set<InetSocketAddress> senders = Collections.synchronizedSet(new java.util.HashSet<>());
        EventLoop loop = group.next();
        io.mclb.net.DatagramEnvelopes envelopes = new io.mclb.net.DatagramEnvelopes(loop);
        // the data path's slots (UdpSockets.upstream), on a channel of the path under test
        Channel ch = new Bootstrap().group(loop).channelFactory(() -> new MclbDatagramChannel(family, own))
                .option(ChannelOption.ALLOCATOR, io.netty.buffer.PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR,
                        new io.netty.channel.FixedRecvByteBufAllocator((UdpSockets.MAX_DATAGRAM + 1) * UdpSockets.READ_BATCH))
                .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, UdpSockets.MAX_DATAGRAM + 1)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext c, Object msg) {
                        DatagramPacket p = (DatagramPacket) msg;
                        senders.add(p.sender());
                        if (direct) {
                            envelopes.send(c.channel(), p.content(), p.sender());
                        } else {
                            c.write(envelopes.wrap(p.content(), p.sender()), c.voidPromise());
                        }
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext c) {
                        if (direct) {
                            io.mclb.net.DatagramEnvelopes.flush(c.channel());
                        } else {
                            c.flush();
                        }
                    }
                }).bind(new InetSocketAddress(bindTo, 0)).sync().channel();
        try (DatagramChannel a = DatagramChannel.open().bind(new InetSocketAddress(peer, 0));
             DatagramChannel b = DatagramChannel.open().bind(new InetSocketAddress(peer, 0))) {
            InetSocketAddress to = new InetSocketAddress(peer, ((InetSocketAddress) ch.localAddress()).getPort());
            List<String> wantA = new ArrayList<>();
            List<String> wantB = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String text = "e" + i + "y".repeat(i % 41);
                (i % 2 == 0 ? a : b).send(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), to);
                (i % 2 == 0 ? wantA : wantB).add(text);
            }
            assertThat(drain(a, wantA.size())).containsExactlyInAnyOrderElementsOf(wantA);
            assertThat(drain(b, wantB.size())).containsExactlyInAnyOrderElementsOf(wantB);
            assertThat(senders).as("each peer as the JDK names it").containsExactlyInAnyOrder(
                    (InetSocketAddress) a.getLocalAddress(), (InetSocketAddress) b.getLocalAddress());
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void theAddressCacheGivesEqualAddressesAndReusesThemForRepeatedPeers() throws Exception {
        SocketAddressCache cache = new SocketAddressCache();
        Map<InetSocketAddress, InetSocketAddress> first = new java.util.HashMap<>();
        byte[] raw = new byte[16];
        int reused = 0;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 300; i++) {
                raw[0] = 10;
                raw[1] = (byte) (i >> 8);
                raw[2] = (byte) i;
                raw[3] = 1;
                InetSocketAddress a = cache.of(raw, 4, 2123 + i % 3, 0);
                InetSocketAddress expected = new InetSocketAddress(InetAddress.getByAddress(java.util.Arrays.copyOf(raw, 4)),
                        2123 + i % 3);
                assertThat(a).isEqualTo(expected);
                InetSocketAddress seen = first.putIfAbsent(a, a);
                reused += seen == a ? 1 : 0;
            }
        }
        // direct-mapped: a peer whose slot another peer took is built again (300 peers in 4,096 slots)
        assertThat(reused).as("second round: the same objects").isGreaterThan(270);
        assertThat(cache.misses()).isEqualTo(600 - reused);
        byte[] v6 = InetAddress.getByName("2001:db8::1").getAddress();
        InetSocketAddress six = cache.of(v6, 16, 1812, 0);
        assertThat(six).isEqualTo(new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 1812));
        assertThat(cache.of(v6, 16, 1813, 0).getPort()).as("port is part of the key").isEqualTo(1813);
        assertThat(cache.of(v6, 16, 1812, 0)).isSameAs(six);
        assertThat(cache.of(v6, 0, 1812, 0)).as("no sockaddr").isNull();
    }
}
