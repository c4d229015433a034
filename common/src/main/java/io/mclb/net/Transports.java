package io.mclb.net;

import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.channels.spi.SelectorProvider;

/**
 * Epoll when the native transport loads (Linux), NIO otherwise. Datagram channels are opened for
 * the address family of the address they bind, never as dual-stack sockets: a VIP bound as
 * {@code ::ffff:a.b.c.d} would answer from an address clients do not expect.
 */
public final class Transports {
    private Transports() {
    }

    public static boolean nativeEpoll() {
        return Epoll.isAvailable();
    }

    public static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory io = nativeEpoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    }

    /** TCP client channels (tcp and http probes) of {@code remote}'s address family. */
    public static ChannelFactory<SocketChannel> streamFactory(InetAddress remote) {
        SocketProtocolFamily family = remote instanceof Inet6Address ? SocketProtocolFamily.INET6
                : SocketProtocolFamily.INET;
        if (nativeEpoll()) {
            return () -> new EpollSocketChannel(family);
        }
        return () -> new NioSocketChannel(SelectorProvider.provider(), family);
    }

    /** The TCP server channel class of {@link #newGroup}'s transport (control connections: DFP, replication). */
    public static Class<? extends io.netty.channel.socket.ServerSocketChannel> tcpServer() {
        return nativeEpoll() ? io.netty.channel.epoll.EpollServerSocketChannel.class
                : io.netty.channel.socket.nio.NioServerSocketChannel.class;
    }

    /** The TCP client channel class of {@link #newGroup}'s transport. */
    public static Class<? extends io.netty.channel.socket.SocketChannel> tcpClient() {
        return nativeEpoll() ? io.netty.channel.epoll.EpollSocketChannel.class
                : io.netty.channel.socket.nio.NioSocketChannel.class;
    }

    public static ChannelFactory<DatagramChannel> datagramFactory(InetAddress bindAddress) {
        SocketProtocolFamily family = bindAddress instanceof Inet6Address ? SocketProtocolFamily.INET6
                : SocketProtocolFamily.INET;
        if (nativeEpoll()) {
            return () -> new EpollDatagramChannel(family);
        }
        return () -> new NioDatagramChannel(family);
    }
}
