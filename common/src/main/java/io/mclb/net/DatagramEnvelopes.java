package io.mclb.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.IllegalReferenceCountException;

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
    private static final InetSocketAddress NOWHERE = new InetSocketAddress(0);

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
        e.content = content;
        e.recipient = recipient;
        e.refs = 1;
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

    /**
     * A {@link DatagramPacket} whose content and recipient are set per use. Every accessor Netty
     * calls is overridden: the superclass's final fields hold only a placeholder.
     */
    private final class Envelope extends DatagramPacket {
        private ByteBuf content;
        private InetSocketAddress recipient;
        private int refs;

        Envelope() {
            super(Unpooled.EMPTY_BUFFER, NOWHERE);
        }

        @Override
        public ByteBuf content() {
            if (refs <= 0) {
                throw new IllegalReferenceCountException(0);
            }
            return content;
        }

        @Override
        public InetSocketAddress recipient() {
            return recipient;
        }

        @Override
        public InetSocketAddress sender() {
            return null;
        }

        @Override
        public int refCnt() {
            return refs <= 0 ? 0 : content.refCnt();
        }

        @Override
        public DatagramPacket retain() {
            return retain(1);
        }

        @Override
        public DatagramPacket retain(int increment) {
            if (refs <= 0) {
                throw new IllegalReferenceCountException(0, increment);
            }
            content.retain(increment);
            refs += increment;
            return this;
        }

        @Override
        public boolean release() {
            return release(1);
        }

        @Override
        public boolean release(int decrement) {
            if (refs <= 0 || decrement > refs) {
                throw new IllegalReferenceCountException(refs, -decrement);
            }
            ByteBuf c = content;
            refs -= decrement;
            if (refs > 0) {
                return c.release(decrement);
            }
            content = null;
            recipient = null;
            recycle(this);
            return c.release(decrement);
        }

        @Override
        public DatagramPacket touch() {
            return this;
        }

        @Override
        public DatagramPacket touch(Object hint) {
            return this;
        }

        @Override
        public DatagramPacket replace(ByteBuf replacement) {
            return new DatagramPacket(replacement, recipient);
        }

        @Override
        public DatagramPacket copy() {
            return replace(content().copy());
        }

        @Override
        public DatagramPacket duplicate() {
            return replace(content().duplicate());
        }

        @Override
        public DatagramPacket retainedDuplicate() {
            return replace(content().retainedDuplicate());
        }

        @Override
        public String toString() {
            return "DatagramPacket(=> " + recipient + ", " + content + ")";
        }
    }
}
