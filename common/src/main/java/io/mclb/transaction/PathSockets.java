package io.mclb.transaction;

import io.mclb.net.DatagramEnvelopes;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.epoll.MclbDatagramChannel;
import io.netty.channel.socket.DatagramPacket;

import java.util.function.IntFunction;

/**
 * A {@link TransactionRelay}'s fixed set of sockets toward the reals, bound to ephemeral ports at
 * start: socket {@code i} is the {@code i} of a {@link TransactionTable} path, so a (socket, real)
 * pair is one id space (contrast {@link io.mclb.vserver.FlowSocket}'s one flow per real per
 * socket). Writes are collected and flushed once per I/O pass, one sendmmsg per socket: on mclb's
 * epoll channel straight from its send queue ({@link MclbDatagramChannel#send}), elsewhere through
 * the pipeline. Loop-confined after construction.
 */
final class PathSockets {
    private final Channel[] sockets;
    /** Bit i: socket i was written since its last flush. */
    private long dirty;

    /**
     * Binds {@code count} (1..64) sockets (call from outside the loop); {@code bind} binds socket
     * {@code i} with its handler.
     */
    PathSockets(int count, IntFunction<ChannelFuture> bind) {
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("upstream sockets: " + count + ", allowed 1..64");
        }
        sockets = new Channel[count];
        for (int i = 0; i < count; i++) {
            sockets[i] = bind.apply(i).syncUninterruptibly().channel();
        }
    }

    int count() {
        return sockets.length;
    }

    /**
     * Queues {@code p} on socket {@code i}; sent at the next {@link #flush()}. Where the channel's
     * send queue is full, the pipeline's outbound buffer takes it, unbounded as before.
     */
    void write(int i, DatagramPacket p) {
        Channel c = sockets[i];
        dirty |= 1L << i;
        if (c instanceof MclbDatagramChannel m) {
            ByteBuf content = p.content().retain(); // the queue's reference; the envelope's goes with it
            if (m.send(content, p.recipient()) == MclbDatagramChannel.Send.QUEUED) {
                p.release();
                return;
            }
            content.release();
        }
        c.write(p, c.voidPromise());
    }

    /** Flushes the sockets written since the last flush. */
    void flush() {
        long d = dirty;
        dirty = 0;
        while (d != 0) {
            int i = Long.numberOfTrailingZeros(d);
            d &= d - 1;
            DatagramEnvelopes.flush(sockets[i]);
        }
    }

    void close() {
        for (Channel c : sockets) {
            c.close();
        }
    }
}
