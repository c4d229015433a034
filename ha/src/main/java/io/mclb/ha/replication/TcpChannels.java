package io.mclb.ha.replication;

import io.mclb.net.Transports;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

/** TCP channel classes matching {@link Transports#newGroup}: epoll when it loads, NIO otherwise. */
final class TcpChannels {
    private TcpChannels() {
    }

    static Class<? extends ServerSocketChannel> server() {
        return Transports.tcpServer();
    }

    static Class<? extends SocketChannel> client() {
        return Transports.tcpClient();
    }
}
