package io.mclb.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.MclbDatagramChannel;
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
 *
 * <p>{@link #send} and {@link #flush} are how the data path writes: on mclb's epoll channel a
 * datagram needs no envelope at all ({@link MclbDatagramChannel#send} queues the content and
 * recipient for sendmmsg), elsewhere (Netty's natives, NIO, io_uring, a heap buffer) it goes
 * through the pipeline in an envelope from here.
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

    /**
     * Writes {@code content} (owned from here when taken) to {@code recipient} on {@code channel},
     * unflushed; false when the channel's send queue is full ({@link MclbDatagramChannel.Send#QUEUE_FULL}):
     * the caller still owns the content and drops and counts it. Call on the channel's loop.
     */
    public boolean send(Channel channel, ByteBuf content, InetSocketAddress recipient) {
        if (channel instanceof MclbDatagramChannel m) {
            MclbDatagramChannel.Send r = m.send(content, recipient);
            if (r != MclbDatagramChannel.Send.USE_PIPELINE) {
                return r == MclbDatagramChannel.Send.QUEUED;
            }
        }
        channel.write(wrap(content, recipient), channel.voidPromise());
        return true;
    }

    /** Sends what {@link #send} wrote on {@code channel}. Call on the channel's loop. */
    public static void flush(Channel channel) {
        if (channel instanceof MclbDatagramChannel m) {
            m.flushSends();
        } else {
            channel.flush();
        }
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
