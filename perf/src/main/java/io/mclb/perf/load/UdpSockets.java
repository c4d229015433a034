package io.mclb.perf.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Netty UDP plumbing of every perf simulator and generator: epoll when the native transport loads
 * and NIO otherwise (so they also run on a developer machine without the native library),
 * family-specific channels, 4 MiB socket buffers.
 */
public final class UdpSockets {
    /** Socket buffers sized like {@code rmem_max} on the target hosts: the default 208 KiB loses bursts. */
    public static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private UdpSockets() {
    }

    public static boolean epoll() {
        return Epoll.isAvailable();
    }

    /** "epoll" or "nio", for start-up logs. */
    public static String transportName() {
        return epoll() ? "epoll" : "nio";
    }

    /** A single-threaded group: every channel of one simulator/generator shares it, so state needs no locks. */
    public static EventLoopGroup newSingleThreadGroup() {
        IoHandlerFactory factory = epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, factory);
    }

    /**
     * A datagram channel factory of the address family of {@code address}: without it epoll opens
     * an AF_INET6 dual-stack socket and reports IPv4 peers as mapped addresses.
     */
    public static ChannelFactory<Channel> channelFactory(InetAddress address) {
        SocketProtocolFamily family = address instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
        if (epoll()) {
            return () -> new EpollDatagramChannel(family);
        }
        return () -> new NioDatagramChannel(family);
    }

    /**
     * Binds a socket on {@code loop} at {@code address} (port 0: ephemeral). Blocks until bound.
     *
     * @throws RuntimeException whatever Netty rethrows for a failed bind
     */
    public static Channel bind(EventLoop loop, InetSocketAddress address, ChannelHandler handler) {
        return bootstrap(loop, address.getAddress(), handler).bind(address).syncUninterruptibly().channel();
    }

    /**
     * Binds a socket on {@code loop} to {@code source} (ephemeral port) and connects it to
     * {@code target}. Blocks until connected.
     *
     * @throws RuntimeException whatever Netty rethrows for a failed bind
     */
    public static Channel connect(EventLoop loop, InetAddress source, InetSocketAddress target, ChannelHandler handler) {
        return bootstrap(loop, target.getAddress(), handler)
                .localAddress(new InetSocketAddress(source, 0))
                .connect(target)
                .syncUninterruptibly()
                .channel();
    }

    private static Bootstrap bootstrap(EventLoop loop, InetAddress family, ChannelHandler handler) {
        return new Bootstrap()
                .group(loop)
                .channelFactory(channelFactory(family))
                .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .handler(handler);
    }
}
