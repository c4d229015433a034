package io.mclb.transaction;

import io.mclb.vserver.VirtualServer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.IntFunction;

/**
 * One relay's sockets toward the reals, bound to ephemeral ports at start: socket {@code i} is
 * the {@code i} of a {@link TransactionTable} path. Writes are collected and flushed once per read
 * batch (Netty then sends them with one sendmmsg per socket). Loop-confined after construction.
 */
final class UpstreamSockets {
    private final Channel[] sockets;
    /** Bit i: socket i was written since its last flush. */
    private long dirty;

    /**
     * Binds {@code count} (1..64) sockets of the family of {@code family} on {@code loop} (call from
     * outside the loop); {@code handler} makes the inbound handler of socket {@code i}.
     */
    UpstreamSockets(int count, InetAddress family, EventLoop loop, IntFunction<ChannelHandler> handler) {
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("upstream sockets: " + count + ", allowed 1..64");
        }
        InetAddress any = wildcard(family instanceof Inet6Address ? "::" : "0.0.0.0");
        sockets = new Channel[count];
        for (int i = 0; i < count; i++) {
            Bootstrap b = VirtualServer.upstreamTemplate(family).group(loop).handler(handler.apply(i));
            sockets[i] = b.bind(new InetSocketAddress(any, 0)).syncUninterruptibly().channel();
        }
    }

    int count() {
        return sockets.length;
    }

    /** Queues {@code p} on socket {@code i}; sent at the next {@link #flush()}. */
    void write(int i, DatagramPacket p) {
        Channel c = sockets[i];
        c.write(p, c.voidPromise());
        dirty |= 1L << i;
    }

    /** Flushes the sockets written since the last flush. */
    void flush() {
        long d = dirty;
        dirty = 0;
        while (d != 0) {
            int i = Long.numberOfTrailingZeros(d);
            d &= d - 1;
            sockets[i].flush();
        }
    }

    void close() {
        for (Channel c : sockets) {
            c.close();
        }
    }

    private static InetAddress wildcard(String a) {
        try {
            return InetAddress.getByName(a);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
