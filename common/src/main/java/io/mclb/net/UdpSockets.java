package io.mclb.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.channel.uring.IoUringChannelOption;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The UDP sockets of the data path and the probes, configured in one place: 4 MiB buffers (a
 * signalling burst must not be dropped in the kernel), recvmmsg batches, and for a virtual
 * address SO_REUSEPORT (one listener per event loop) and IP_FREEBIND.
 */
public final class UdpSockets {
    /** Largest datagram relayed; larger ones are dropped as {@code oversized}. */
    public static final int MAX_DATAGRAM = 9000;
    /** Datagrams read per recvmmsg call. */
    public static final int READ_BATCH = 16;
    public static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private static final InetAddress ANY4 = literal("0.0.0.0");
    private static final InetAddress ANY6 = literal("::");

    private UdpSockets() {
    }

    /** True when the transport in use opens one listener per loop on a port (SO_REUSEPORT); NIO cannot. */
    public static boolean reusePort() {
        return Transports.active() != TransportKind.NIO;
    }

    /** A bootstrap (no group, no handler) for a listener on a virtual address. */
    public static Bootstrap listener(InetAddress address) {
        Bootstrap b = template(address);
        // IP_FREEBIND: a standby binds its HA virtual address before it owns it, so taking over
        // only moves the address (DESIGN section 7, warm standby); harmless for a local address
        switch (Transports.active()) {
            case EPOLL -> b.option(UnixChannelOption.SO_REUSEPORT, true).option(EpollChannelOption.IP_FREEBIND, true);
            case IO_URING -> b.option(UnixChannelOption.SO_REUSEPORT, true).option(IoUringChannelOption.IP_FREEBIND, true);
            default -> {
            }
        }
        return b;
    }

    /**
     * Fails with "Address already in use" when another socket holds {@code vip}, even one bound
     * with SO_REUSEPORT (which the listeners use, so a second mclb of the same user could bind
     * alongside and silently take half the traffic). Other failures (e.g. an HA address not
     * here yet) are left to the real bind, which has IP_FREEBIND.
     */
    public static void requireNoOtherOwner(InetSocketAddress vip) throws java.net.BindException {
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(null)) {
            probe.setReuseAddress(false);
            probe.bind(vip);
        } catch (java.net.BindException e) {
            if (String.valueOf(e.getMessage()).contains("already in use")) {
                throw e;
            }
        } catch (java.io.IOException e) {
            // not ours to judge: the listener bind reports it
        }
    }

    /** A bootstrap (no group, no handler) for sockets toward reals of {@code family}'s address family. */
    public static Bootstrap upstream(InetAddress family) {
        return template(family);
    }

    /**
     * A bootstrap for a probe's socket, shared by the checks of one probe on one loop: the answers
     * of a check slot arrive together, so recvmmsg batches and a 1 MiB receive buffer.
     */
    public static Bootstrap probe(InetAddress family) {
        Bootstrap b = new Bootstrap().channelFactory(Transports.datagramFactory(family))
                .option(ChannelOption.SO_RCVBUF, PROBE_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(PROBE_DATAGRAM * READ_BATCH));
        if (Transports.nativeEpoll()) {
            b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, PROBE_DATAGRAM);
        }
        return b;
    }

    private static final int PROBE_SOCKET_BUFFER_BYTES = 1024 * 1024;

    /** Largest probe answer read whole (RADIUS and DNS answers fit; a longer one is judged on its start). */
    public static final int PROBE_DATAGRAM = 4096;

    /** mclb's own address toward a real: the wildcard of the real's family, the kernel picks the source. */
    public static InetSocketAddress ephemeral(InetAddress family) {
        return new InetSocketAddress(family instanceof Inet6Address ? ANY6 : ANY4, 0);
    }

    private static Bootstrap template(InetAddress family) {
        // the pooled allocator: its buffers hand out recycled slices, so splitting one recvmmsg read
        // into datagrams allocates no slice object per datagram (Netty 4.2's default adaptive
        // allocator does: about 35 bytes each, perf/README.md "Allocation per request")
        Bootstrap b = new Bootstrap().channelFactory(Transports.relayDatagramFactory(family))
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator((MAX_DATAGRAM + 1) * READ_BATCH));
        switch (Transports.active()) {
            case EPOLL -> b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM + 1);
            case IO_URING -> b.option(IoUringChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM + 1);
            default -> {
            }
        }
        return b;
    }

    private static InetAddress literal(String a) {
        try {
            return InetAddress.getByName(a);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
