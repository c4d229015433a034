package io.mclb.perf.udp;

import io.mclb.perf.load.UdpSockets;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated farm of UDP reals for {@code mclb demo} and tests: one socket per address, each
 * echoing every datagram back to its sender byte for byte.
 *
 * <p>Responders are numbered by their position in the address list. Each counts what it
 * received and what it answered; a responder made {@linkplain #setSilent silent} keeps counting
 * received datagrams but answers none, which is how tests simulate a failed real.
 *
 * <p>Threading: all sockets share one event loop thread, which is the only writer of the
 * counters; the accessors may be called from any thread and see values at most one datagram old.
 */
public final class UdpResponderFarm implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UdpResponderFarm.class);
    private static final long CLOSE_TIMEOUT_MS = 5_000;

    private final EventLoopGroup group;
    private final List<Channel> channels;
    private final List<Responder> responders;
    private final List<InetSocketAddress> boundAddresses;

    private UdpResponderFarm(EventLoopGroup group, List<Channel> channels, List<Responder> responders) {
        this.group = group;
        this.channels = List.copyOf(channels);
        this.responders = List.copyOf(responders);
        List<InetSocketAddress> bound = new ArrayList<>(channels.size());
        for (Channel channel : channels) {
            bound.add((InetSocketAddress) channel.localAddress());
        }
        this.boundAddresses = List.copyOf(bound);
    }

    /**
     * Binds one responder per address (port 0 picks a free port, see {@link #boundAddresses()}).
     * If any bind fails, the sockets already bound are closed and the failure is thrown.
     *
     * @throws IllegalArgumentException if {@code addresses} is empty
     * @throws IllegalStateException if a socket cannot be bound
     */
    public static UdpResponderFarm start(List<InetSocketAddress> addresses) {
        Objects.requireNonNull(addresses, "addresses");
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("a farm needs at least one address");
        }
        EventLoopGroup group = UdpSockets.newSingleThreadGroup();
        List<Channel> channels = new ArrayList<>(addresses.size());
        List<Responder> responders = new ArrayList<>(addresses.size());
        try {
            for (InetSocketAddress address : addresses) {
                Responder responder = new Responder();
                Channel channel = UdpSockets.bind(group.next(), address, responder);
                channels.add(channel);
                responders.add(responder);
            }
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked-style
            for (Channel channel : channels) {
                channel.close().awaitUninterruptibly();
            }
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
            throw new IllegalStateException("cannot bind responder farm on " + addresses, e);
        }
        UdpResponderFarm farm = new UdpResponderFarm(group, channels, responders);
        LOG.info("responder farm listening on {} ({})", farm.boundAddresses, UdpSockets.transportName());
        return farm;
    }

    /** The addresses actually bound, in the order given to {@link #start}. */
    public List<InetSocketAddress> boundAddresses() {
        return boundAddresses;
    }

    /** Number of responders. */
    public int size() {
        return responders.size();
    }

    /** Datagrams responder {@code index} has received, answered or not. */
    public long received(int index) {
        return responders.get(index).received.get();
    }

    /** Datagrams responder {@code index} has echoed back. */
    public long answered(int index) {
        return responders.get(index).answered.get();
    }

    /** Sum of {@link #received(int)} over all responders. */
    public long totalReceived() {
        long sum = 0;
        for (Responder responder : responders) {
            sum += responder.received.get();
        }
        return sum;
    }

    /** When {@code silent}, responder {@code index} keeps counting datagrams but answers none. */
    public void setSilent(int index, boolean silent) {
        responders.get(index).silent = silent;
    }

    /** Whether responder {@code index} is currently silent. */
    public boolean isSilent(int index) {
        return responders.get(index).silent;
    }

    /** Closes every socket and stops the event loop; waits at most a few seconds. Idempotent. */
    @Override
    public void close() {
        for (Channel channel : channels) {
            channel.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
    }

    /** One socket's echo handler. Counters: written by the event loop only, read anywhere. */
    private static final class Responder extends SimpleChannelInboundHandler<DatagramPacket> {
        final AtomicLong received = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        volatile boolean silent;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            received.lazySet(received.get() + 1);
            if (silent) {
                return;
            }
            if (!ctx.channel().isWritable()) {
                // The send buffer is full: a real drops here too, and queueing would grow without bound.
                return;
            }
            // Same buffer back to the sender: the retain balances the release done after this method.
            ctx.write(new DatagramPacket(packet.content().retain(), packet.sender()));
            answered.lazySet(answered.get() + 1);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            // One flush per read batch lets epoll send the replies of a burst together.
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // ICMP port unreachable from a vanished client surfaces here; the responder must keep serving.
            LOG.debug("responder {}: {}", ctx.channel().localAddress(), cause.toString());
        }
    }
}
