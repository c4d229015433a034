package io.mclb.ha.replication;

import io.mclb.net.Transports;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** TCP channel classes matching {@link Transports#newGroup}: epoll when it loads, NIO otherwise. */
final class TcpChannels {
    private TcpChannels() {
    }

    static Class<? extends ServerSocketChannel> server() {
        return Transports.nativeEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends SocketChannel> client() {
        return Transports.nativeEpoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
