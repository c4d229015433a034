package io.mclb.vserver;

import io.mclb.net.DatagramEnvelopes;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.DatagramPacket;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * A socket of a {@link FlowRelay} toward the reals, opened on demand: a plain UDP flow is
 * identified on the way back only by (socket, real address), so each socket carries at most one
 * flow per real and a second flow to the same real takes another socket (contrast
 * {@link io.mclb.transaction.PathSockets}, a fixed set where ids tell requests apart). Loop-confined.
 *
 * <p>A socket opened from inside the loop is bound asynchronously; datagrams written before the
 * bind completes wait in {@link #pending} (a write on an unbound UDP socket would let the kernel
 * pick a port and the bind would then fail).
 */
final class FlowSocket {
    private static final int MAX_PENDING = 1024;

    final Channel channel;
    /** Its flows by real: an answer's sender finds its flow. */
    final FlowIndex byTarget = new FlowIndex();
    private ArrayDeque<DatagramPacket> pending;
    private boolean ready;
    /** In its relay's list of sockets to flush at the batch end. */
    boolean dirty;
    /** Closed (idle) or failed to bind: free lists that still name it skip it. */
    boolean closed;

    FlowSocket(Channel channel, boolean ready) {
        this.channel = channel;
        this.ready = ready;
    }

    boolean ready() {
        return ready;
    }

    /**
     * Writes {@code content} to {@code to} (without flushing) or queues it until bound: null when
     * taken, else why not (the caller still owns the content, drops and counts it): the socket's
     * send queue is full ({@code send_failed}) or too many wait for the bind ({@code upstream_unavailable}).
     */
    DropReason send(DatagramEnvelopes envelopes, ByteBuf content, InetSocketAddress to) {
        if (ready) {
            return envelopes.send(channel, content, to) ? null : DropReason.SEND_FAILED;
        }
        if (pending == null) {
            pending = new ArrayDeque<>();
        }
        if (pending.size() >= MAX_PENDING) {
            return DropReason.UPSTREAM_UNAVAILABLE;
        }
        pending.add(envelopes.wrap(content, to));
        return null;
    }

    /** The bind completed: send what waited. */
    void bound() {
        ready = true;
        if (pending != null) {
            DatagramPacket p;
            while ((p = pending.poll()) != null) {
                channel.write(p, channel.voidPromise());
            }
            channel.flush();
            pending = null;
        }
    }

    /** The bind failed: release what waited; returns how many were dropped. */
    int failed() {
        int n = 0;
        if (pending != null) {
            DatagramPacket p;
            while ((p = pending.poll()) != null) {
                p.release();
                n++;
            }
        }
        return n;
    }
}
