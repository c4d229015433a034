package io.mclb.perf.gtp.sim;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
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

/**
 * Netty UDP plumbing shared by the GTP simulator and load generator (the same choices as the
 * package-private {@code io.mclb.perf.udp.UdpTransport}): epoll when the native transport loads,
 * NIO otherwise, family-specific channels, 4 MiB socket buffers.
 */
public final class GtpTransport {
    /** Socket buffers sized like {@code rmem_max} on the target hosts: the default 208 KiB loses bursts. */
    public static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private GtpTransport() {
    }

    public static boolean epoll() {
        return Epoll.isAvailable();
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
}
