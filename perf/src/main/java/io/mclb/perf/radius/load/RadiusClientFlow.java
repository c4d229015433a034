package io.mclb.perf.radius.load;

import io.mclb.radius.codec.RadiusCodes;
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
 * One client socket (one NAS port, in RADIUS terms) of a {@link RadiusLoadGenerator}: sends
 * requests with the 8-bit Identifier taken from a running counter and matches responses by it.
 *
 * <p>Invariants (event loop thread only): requests {@code [head, next)} occupy slots
 * {@code n & 255}, the wire Identifier is {@code n & 255}; {@code head} is {@code next} or the
 * oldest unsettled request and {@code next - head <= 256}, so an Identifier maps back to exactly
 * one request and is never reused while that request may still be answered (RFC 2865 section 3).
 * Each slot keeps the Request Authenticator sent, to verify the Response Authenticator.
 */
final class RadiusClientFlow extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RadiusClientFlow.class);
    static final int SLOTS = 256;
    private static final int MASK = SLOTS - 1;
    private static final long SETTLED = Long.MIN_VALUE;

    private final RadiusLoadGenerator generator;
    private final long[] sendNanos = new long[SLOTS];
    private final byte[] requestCode = new byte[SLOTS];
    private final byte[] authenticators = new byte[SLOTS * 16];
    private Channel channel;
    private long head;
    private long next;
    private boolean flushPending;
    // Counters, event loop only.
    long sent;
    long accepts;
    long rejects;
    long acctResponses;
    long badAuthenticators;
    long lost;
    long unmatched;
    long inFlight;

    RadiusClientFlow(RadiusLoadGenerator generator) {
        this.generator = generator;
        Arrays.fill(sendNanos, SETTLED);
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    /** Sends one request unless the window or the Identifier space is full or the socket cannot take it. */
    boolean trySend(long nowNanos) {
        if (!generator.sending() || inFlight >= generator.windowPerFlow() || next - head >= SLOTS
                || channel == null || !channel.isWritable()) {
            return false;
        }
        int slot = (int) (next & MASK);
        ByteBuf out = channel.alloc().ioBuffer(RadiusRequestEncoder.MAX_LENGTH);
        requestCode[slot] = (byte) generator.encodeNext(out, slot, authenticators, slot * 16);
        sendNanos[slot] = nowNanos;
        next++;
        inFlight++;
        sent++;
        channel.write(out, channel.voidPromise());
        flushPending = true;
        return true;
    }

    void fillWindow(long nowNanos) {
        while (trySend(nowNanos)) {
            // until the window is full
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
            int slot = (int) (head & MASK);
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
        }
        flush();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            ByteBuf content = msg instanceof ByteBufHolder holder ? holder.content() : msg instanceof ByteBuf b ? b : null;
            if (content != null) {
                long now = System.nanoTime();
                onResponse(content, now);
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
        LOG.debug("RADIUS flow {}: {}", ctx.channel().localAddress(), cause.toString());
    }

    private void onResponse(ByteBuf in, long now) {
        int code = generator.peekResponse(in);
        if (code < 0) {
            unmatched++;
            return;
        }
        int id = in.getUnsignedByte(in.readerIndex() + 1);
        long n = head + ((id - head) & MASK);
        int slot = (int) (n & MASK);
        if (n >= next || sendNanos[slot] == SETTLED || !answers(requestCode[slot], code)) {
            unmatched++; // late (already lost), duplicate or foreign
            return;
        }
        long sentAt = sendNanos[slot];
        sendNanos[slot] = SETTLED;
        inFlight--;
        if (!generator.verifyResponse(requestCode[slot], authenticators, slot * 16)) {
            badAuthenticators++;
        } else {
            generator.recordLatency(now - sentAt);
            switch (code) {
                case RadiusCodes.ACCESS_ACCEPT -> accepts++;
                case RadiusCodes.ACCESS_REJECT -> rejects++;
                default -> acctResponses++;
            }
        }
        while (head < next && sendNanos[(int) (head & MASK)] == SETTLED) {
            head++;
        }
    }

    private static boolean answers(int requestCode, int responseCode) {
        return requestCode == RadiusCodes.ACCESS_REQUEST
                ? responseCode == RadiusCodes.ACCESS_ACCEPT || responseCode == RadiusCodes.ACCESS_REJECT
                : responseCode == RadiusCodes.ACCOUNTING_RESPONSE;
    }

    void close(long timeoutMs) {
        if (channel != null) {
            channel.close().awaitUninterruptibly(timeoutMs);
        }
    }
}
