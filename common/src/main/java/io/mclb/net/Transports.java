package io.mclb.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.MclbDatagramChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.channels.spi.SelectorProvider;

/**
 * The process's one I/O transport ({@code mclb transport}): every event loop group and every channel
 * is made for it, since a channel registers only with loops of its own transport. Chosen once at
 * start ({@link #use}, by the runtime); until then {@code auto}. Datagram channels are opened for
 * the address family of the address they bind, never as dual-stack sockets: a VIP bound as
 * {@code ::ffff:a.b.c.d} would answer from an address clients do not expect.
 *
 * <p>{@code auto} prefers epoll, then io_uring, then NIO: io_uring did not beat epoll on mclb's
 * relay in the same-run measurement of perf/README.md ("Transports"), so it is used only when
 * asked for, or when epoll does not load.
 */
public final class Transports {
    /** What {@link #use} resolved a request to, and why (logged once at start). */
    public record Choice(TransportKind kind, String why) {
    }

    /** Written once at start (before any loop exists), read by every channel factory. */
    private static volatile TransportKind active = resolve(TransportKind.AUTO).kind();

    private Transports() {
    }

    /**
     * Resolves {@code wanted} on this host and makes it the process's transport. A transport that
     * does not load here falls back as {@code auto} would, and the reason says why.
     */
    public static Choice use(TransportKind wanted) {
        Choice c = resolve(wanted);
        active = c.kind();
        return c;
    }

    /** The transport in use (never {@code AUTO}). */
    public static TransportKind active() {
        return active;
    }

    static Choice resolve(TransportKind wanted) {
        String epollWhy = Epoll.isAvailable() ? null : cause(Epoll.unavailabilityCause());
        String uringWhy = IoUring.isAvailable() ? null : cause(IoUring.unavailabilityCause());
        switch (wanted) {
            case EPOLL -> {
                if (epollWhy == null) {
                    return new Choice(TransportKind.EPOLL, "configured");
                }
                return fallback("epoll unavailable (" + epollWhy + ")", epollWhy, uringWhy);
            }
            case IO_URING -> {
                if (uringWhy == null) {
                    return new Choice(TransportKind.IO_URING, "configured");
                }
                return fallback("io_uring unavailable (" + uringWhy + ")", epollWhy, uringWhy);
            }
            case NIO -> {
                return new Choice(TransportKind.NIO, "configured");
            }
            default -> {
                return fallback("auto", epollWhy, uringWhy);
            }
        }
    }

    private static Choice fallback(String reason, String epollWhy, String uringWhy) {
        if (epollWhy == null) {
            return new Choice(TransportKind.EPOLL, reason + ": epoll"
                    + (uringWhy == null ? " (io_uring also available; epoll measured faster)" : "; io_uring unavailable ("
                    + uringWhy + ")"));
        }
        if (uringWhy == null) {
            return new Choice(TransportKind.IO_URING, reason + ": io_uring; epoll unavailable (" + epollWhy + ")");
        }
        return new Choice(TransportKind.NIO, reason + ": nio; epoll unavailable (" + epollWhy + "), io_uring unavailable ("
                + uringWhy + ")");
    }

    private static String cause(Throwable t) {
        if (t == null) {
            return "unknown cause";
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? String.valueOf(t.getMessage()) : t.getMessage() + ": " + root.getMessage();
    }

    /** True when the transport in use is epoll (epoll-only features: ICMP sockets). */
    public static boolean nativeEpoll() {
        return active == TransportKind.EPOLL;
    }

    public static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory io = switch (active) {
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        };
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    }

    /** TCP client channels (tcp and http probes) of {@code remote}'s address family. */
    public static ChannelFactory<SocketChannel> streamFactory(InetAddress remote) {
        SocketProtocolFamily family = familyOf(remote);
        return switch (active) {
            case EPOLL -> () -> new EpollSocketChannel(family);
            case IO_URING -> IoUringSocketChannel::new; // dual-stack: Netty 4.2 offers no family here
            default -> () -> new NioSocketChannel(SelectorProvider.provider(), family);
        };
    }

    /** The TCP server channel class of {@link #newGroup}'s transport (control connections: DFP, replication). */
    public static Class<? extends ServerSocketChannel> tcpServer() {
        return switch (active) {
            case EPOLL -> EpollServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
            default -> NioServerSocketChannel.class;
        };
    }

    /** The TCP client channel class of {@link #newGroup}'s transport. */
    public static Class<? extends SocketChannel> tcpClient() {
        return switch (active) {
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            default -> NioSocketChannel.class;
        };
    }

    /**
     * The data path's UDP sockets (listeners and sockets toward reals): under epoll mclb's own
     * {@link MclbDatagramChannel}, whose reads allocate nothing per datagram (handlers must not keep
     * the inbound packet object past {@code channelRead}, which the relays never do); Netty's own
     * channel where that one cannot load (see {@link #relayReadPath()}). io_uring and NIO keep
     * Netty's channels.
     */
    public static ChannelFactory<? extends Channel> relayDatagramFactory(InetAddress bindAddress) {
        if (active == TransportKind.EPOLL && MclbDatagramChannel.isAvailable()) {
            SocketProtocolFamily family = familyOf(bindAddress);
            return () -> new MclbDatagramChannel(family);
        }
        return datagramFactory(bindAddress);
    }

    /** Which read path {@link #relayDatagramFactory} gives, for the start log. */
    public static String relayReadPath() {
        if (active != TransportKind.EPOLL) {
            return "netty " + active.keyword() + " datagram channel";
        }
        String why = MclbDatagramChannel.unavailabilityCause();
        return why == null ? "mclb recvmmsg reads (no allocation per datagram), " + MclbDatagramChannel.syscallPath()
                : "netty epoll datagram channel (" + why + ")";
    }

    /** Probe and control sockets: Netty's datagram channel of the transport. */
    public static ChannelFactory<DatagramChannel> datagramFactory(InetAddress bindAddress) {
        SocketProtocolFamily family = familyOf(bindAddress);
        return switch (active) {
            case EPOLL -> () -> new EpollDatagramChannel(family);
            case IO_URING -> () -> new IoUringDatagramChannel(family);
            default -> () -> new NioDatagramChannel(family);
        };
    }

    private static SocketProtocolFamily familyOf(InetAddress a) {
        return a instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
    }
}
