package io.mclb.perf.udp;

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
 * Picks epoll when the native transport loads and NIO otherwise, so the simulators also run
 * on a developer machine without the native library.
 */
final class UdpTransport {
    /** Socket buffers sized like {@code rmem_max} on the target hosts: the default 208 KiB loses bursts. */
    static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private UdpTransport() {
    }

    static boolean epoll() {
        return Epoll.isAvailable();
    }

    /** A single-threaded group: every channel of one simulator shares it, so their state needs no locks. */
    static EventLoopGroup newSingleThreadGroup() {
        IoHandlerFactory factory = epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, factory);
    }

    /**
     * A factory for a datagram channel of the address family of {@code address}: without it
     * epoll opens an AF_INET6 dual-stack socket and reports IPv4 peers as mapped addresses.
     */
    static ChannelFactory<Channel> channelFactory(InetAddress address) {
        SocketProtocolFamily family = address instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
        if (epoll()) {
            return () -> new EpollDatagramChannel(family);
        }
        return () -> new NioDatagramChannel(family);
    }
}
