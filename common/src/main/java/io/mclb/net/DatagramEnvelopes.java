package io.mclb.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * Reused outbound envelopes (content + recipient) for one event loop: a forwarded datagram needs
 * a {@link DatagramPacket} to reach Netty's sendmmsg batch (the epoll and io_uring channels batch
 * only that type), and allocating one per datagram was a steady allocation of the relay. The
 * envelope returns here when the channel releases it after the write.
 *
 * <p>Loop-confined: taken and returned on {@code loop} (channels release what they wrote on their
 * own loop, and mclb's channels of a relay all live on the relay's loop). An envelope released on
 * another thread is left to the GC, never pooled. At most {@link #MAX_POOLED} wait here: beyond
 * that (a stalled socket holding thousands), the surplus is garbage, so the pool stays bounded.
 */
public final class DatagramEnvelopes {
    static final int MAX_POOLED = 4096;

    private final EventLoop loop;
    private final ArrayDeque<Envelope> free = new ArrayDeque<>();
    private long created;

    public DatagramEnvelopes(EventLoop loop) {
        this.loop = loop;
    }

    /** An envelope owning {@code content} (released with it) addressed to {@code recipient}. */
    public DatagramPacket wrap(ByteBuf content, InetSocketAddress recipient) {
        Envelope e = free.pollFirst();
        if (e == null) {
            e = new Envelope();
            created++;
        }
        e.wrap(content, recipient);
        return e;
    }

    /** Envelopes ever created (tests: steady state creates none). */
    public long created() {
        return created;
    }

    /** Envelopes waiting for reuse. */
    public int pooled() {
        return free.size();
    }

    private void recycle(Envelope e) {
        if (free.size() < MAX_POOLED && loop.inEventLoop()) {
            free.addLast(e);
        }
    }

    /** An outbound datagram: content and recipient set per use, back to the pool when the channel releases it. */
    private final class Envelope extends ReusableDatagramPacket {
        void wrap(ByteBuf content, InetSocketAddress recipient) {
            set(content, recipient, null);
        }

        @Override
        protected void onReleased() {
            recycle(this);
        }
    }
}
