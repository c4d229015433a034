package io.mclb.perf.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client socket of a {@link LoadDriver}: a ring of outstanding requests, the timeout scan and
 * the closed-loop refill; the protocol encodes requests ({@link #encodeRequest}) and matches and
 * judges answers ({@link #onResponse}).
 *
 * <p>Invariants (event loop thread only): requests {@code [head, next)} (running counters) occupy
 * ring slots {@code n & mask}; {@code head} is either {@code next} or the oldest request not yet
 * settled (answered or lost), so {@code next - head <= slots} guarantees no live slot is
 * overwritten. Requests are sent in counter order, so the oldest unsettled one is always the first
 * to time out. A slot's send time is {@link #SETTLED} once it is answered or lost.
 */
public abstract class ClientFlow extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ClientFlow.class);
    /** Send time of a slot with no request outstanding. */
    protected static final long SETTLED = Long.MIN_VALUE;
    private static final int MIN_SLOTS = 16;

    private final LoadDriver<?, ?> driver;
    private final String label;
    /** Ring size (a power of two) and its mask. */
    protected final int slots;
    protected final int mask;
    /** Send time per slot, or {@link #SETTLED}. */
    protected final long[] sendNanos;
    private Channel channel;
    /** Oldest unsettled request, or {@code next}. */
    protected long head;
    /** Counter of the next request. */
    protected long next;
    private boolean flushPending;
    private long inFlight;

    /**
     * @param slots ring size, a power of two
     * @param label names the flow kind in debug logs
     */
    protected ClientFlow(LoadDriver<?, ?> driver, int slots, String label) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.driver = driver;
        this.label = label;
        this.slots = slots;
        this.mask = slots - 1;
        this.sendNanos = new long[slots];
        Arrays.fill(sendNanos, SETTLED);
    }

    /** Ring size for a window: room for holes left by out-of-order answers (and follow-ups) behind a slow head. */
    public static int slotsFor(int window) {
        return Math.max(MIN_SLOTS, Integer.highestOneBit(window * 4 - 1) << 1);
    }

    /** Requests sent and not yet answered or lost. */
    public final long inFlight() {
        return inFlight;
    }

    final void attach(Channel channel) {
        this.channel = channel;
    }

    /**
     * Writes the request for counter {@link #next} (ring slot {@code slot}) into {@code out}, keeps
     * whatever the protocol needs to match its answer in per-slot state and counts it.
     */
    protected abstract void encodeRequest(ByteBuf out, int slot, long nowNanos);

    /** Largest request the protocol encodes, in bytes. */
    protected abstract int requestCapacity();

    /** Answer (content not released by the callee) arriving at {@code nowNanos}: match it and settle it. */
    protected abstract void onResponse(ByteBuf content, long nowNanos);

    /** The request in {@code slot} timed out (the slot is already settled). */
    protected abstract void onLost(int slot);

    /** Sends one request unless sending stopped, the window or ring is full or the socket cannot take it. */
    public final boolean trySend(long nowNanos) {
        if (!driver.sending() || inFlight >= driver.windowPerFlow() || !roomFor()) {
            return false;
        }
        sendUnchecked(nowNanos);
        return true;
    }

    /** True if the ring has a free slot and the socket can take a datagram (the window is not checked). */
    protected final boolean roomFor() {
        return next - head < slots && channel != null && channel.isWritable();
    }

    private void sendUnchecked(long nowNanos) {
        ByteBuf out = allocate();
        encodeRequest(out, (int) (next & mask), nowNanos);
        dispatch(out, nowNanos);
    }

    /** A buffer of {@link #requestCapacity()} bytes for a request. */
    protected final ByteBuf allocate() {
        return channel.alloc().ioBuffer(requestCapacity());
    }

    /**
     * Sends {@code out} as the request of counter {@link #next} (slot {@code next & mask}, whose
     * protocol state the caller has set) and takes the slot; the caller checked {@link #roomFor()}.
     */
    protected final void dispatch(ByteBuf out, long nowNanos) {
        sendNanos[(int) (next & mask)] = nowNanos;
        next++;
        inFlight++;
        channel.write(out, channel.voidPromise());
        flushPending = true;
    }

    /**
     * Settles the outstanding request in {@code slot} as answered and returns its send time; the
     * caller then calls {@link #advanceHead()}.
     */
    protected final long settle(int slot) {
        long sentAt = sendNanos[slot];
        sendNanos[slot] = SETTLED;
        inFlight--;
        return sentAt;
    }

    /** Moves {@code head} past the settled requests at the front of the ring. */
    protected final void advanceHead() {
        while (head < next && sendNanos[(int) (head & mask)] == SETTLED) {
            head++;
        }
    }

    /** Answer latency, into the driver's histogram. */
    protected final void recordLatency(long nanos) {
        driver.recordLatency(nanos);
    }

    /** Closed loop: top the window up. */
    final void fillWindow(long nowNanos) {
        while (trySend(nowNanos)) {
            // keep sending until the window is full
        }
    }

    final void flush() {
        if (flushPending) {
            flushPending = false;
            channel.flush();
        }
    }

    /** Declares requests older than the timeout lost; in closed loop, refills the window. */
    final void expire(long nowNanos) {
        long timeout = driver.timeoutNanos();
        while (head < next) {
            int slot = (int) (head & mask);
            if (sendNanos[slot] != SETTLED) {
                if (nowNanos - sendNanos[slot] < timeout) {
                    break;
                }
                sendNanos[slot] = SETTLED;
                inFlight--;
                onLost(slot);
            }
            head++;
        }
        if (driver.closedLoop()) {
            fillWindow(nowNanos);
        }
        flush();
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            ByteBuf content = msg instanceof ByteBufHolder holder ? holder.content() : msg instanceof ByteBuf b ? b : null;
            if (content != null) {
                long now = System.nanoTime();
                onResponse(content, now);
                if (driver.closedLoop()) {
                    fillWindow(now);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        flush();
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // ICMP port unreachable (target not up yet) arrives here; those requests simply time out.
        LOG.debug("{} flow {}: {}", label, ctx.channel().localAddress(), cause.toString());
    }

    final void close(long timeoutMs) {
        if (channel != null) {
            channel.close().awaitUninterruptibly(timeoutMs);
        }
    }
}
