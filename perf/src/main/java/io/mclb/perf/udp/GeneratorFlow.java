package io.mclb.perf.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client socket of a {@link UdpTrafficGenerator}: sends sequence-numbered requests and
 * matches answers against a ring of outstanding requests.
 *
 * <p>Invariants (event loop thread only): requests {@code [head, next)} occupy ring slots
 * {@code seq & mask}; {@code head} is either {@code next} or the oldest request not yet settled
 * (answered or lost), so {@code next - head <= slots} guarantees no live slot is overwritten.
 * Requests are sent in sequence order, so the oldest unsettled one is always the first to time out.
 */
final class GeneratorFlow extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(GeneratorFlow.class);
    private static final long SETTLED = Long.MIN_VALUE;
    private static final int MIN_SLOTS = 16;

    private final UdpTrafficGenerator generator;
    private final int requestBytes;
    private final int slots;
    private final int mask;
    private final long[] seqAt;
    private final long[] sendNanos;
    private Channel channel;
    private long head;
    private long next;
    private long sent;
    private long answered;
    private long lost;
    private long inFlight;
    private boolean flushPending;

    GeneratorFlow(UdpTrafficGenerator generator, int requestBytes, int slots) {
        this.generator = generator;
        this.requestBytes = requestBytes;
        this.slots = slots;
        this.mask = slots - 1;
        this.seqAt = new long[slots];
        this.sendNanos = new long[slots];
        java.util.Arrays.fill(sendNanos, SETTLED);
    }

    /** Ring size for a window: room for holes left by out-of-order answers behind a slow head. */
    static int slotsFor(int window) {
        return Math.max(MIN_SLOTS, Integer.highestOneBit(window * 4 - 1) << 1);
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    long sent() {
        return sent;
    }

    long answered() {
        return answered;
    }

    long lost() {
        return lost;
    }

    long inFlight() {
        return inFlight;
    }

    /** Sends one request unless the window or ring is full or the socket cannot take it. */
    boolean trySend(long nowNanos) {
        if (!generator.sending() || inFlight >= generator.windowPerFlow() || next - head >= slots
                || channel == null || !channel.isWritable()) {
            return false;
        }
        ByteBuf request = channel.alloc().ioBuffer(requestBytes);
        request.writeLong(next).writeZero(requestBytes - Long.BYTES);
        int slot = (int) (next & mask);
        seqAt[slot] = next;
        sendNanos[slot] = nowNanos;
        next++;
        inFlight++;
        sent++;
        channel.write(request, channel.voidPromise());
        flushPending = true;
        return true;
    }

    /** Closed loop: top the window up. */
    void fillWindow(long nowNanos) {
        while (trySend(nowNanos)) {
            // keep sending until the window is full
        }
    }

    void flush() {
        if (flushPending) {
            flushPending = false;
            channel.flush();
        }
    }

    /** Declares requests older than the timeout lost; in closed loop, refills the window. */
    void expire(long nowNanos) {
        long timeout = generator.timeoutNanos();
        while (head < next) {
            int slot = (int) (head & mask);
            if (sendNanos[slot] != SETTLED) {
                if (nowNanos - sendNanos[slot] < timeout) {
                    break;
                }
                sendNanos[slot] = SETTLED;
                lost++;
                inFlight--;
            }
            head++;
        }
        if (generator.closedLoop()) {
            fillWindow(nowNanos);
            flush();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            ByteBuf content = msg instanceof ByteBufHolder holder ? holder.content()
                    : msg instanceof ByteBuf buf ? buf : null;
            if (content != null && content.readableBytes() >= Long.BYTES) {
                long now = System.nanoTime();
                onAnswer(content.getLong(content.readerIndex()), now);
                if (generator.closedLoop()) {
                    fillWindow(now);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // ICMP port unreachable (target not up yet) arrives here; those requests simply time out.
        LOG.debug("flow {}: {}", ctx.channel().localAddress(), cause.toString());
    }

    private void onAnswer(long seq, long nowNanos) {
        if (seq < head || seq >= next) {
            return; // late (already lost), duplicate or foreign
        }
        int slot = (int) (seq & mask);
        if (seqAt[slot] != seq || sendNanos[slot] == SETTLED) {
            return;
        }
        generator.recordLatency(nowNanos - sendNanos[slot]);
        sendNanos[slot] = SETTLED;
        answered++;
        inFlight--;
        while (head < next && sendNanos[(int) (head & mask)] == SETTLED) {
            head++;
        }
    }

    void close(long timeoutMs) {
        if (channel != null) {
            channel.close().awaitUninterruptibly(timeoutMs);
        }
    }
}
