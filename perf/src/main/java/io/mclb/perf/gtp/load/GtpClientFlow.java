package io.mclb.perf.gtp.load;

import io.mclb.gtp.GtpCause;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
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
 * One client socket of a {@link GtpLoadGenerator}: sends Create (and, with churn, Delete) requests
 * with a per-socket sequence number and matches responses by sequence.
 *
 * <p>Invariants (event loop thread only): requests {@code [head, next)} (a running counter; the
 * wire carries it modulo the version's sequence space) occupy ring slots {@code n & mask};
 * {@code head} is {@code next} or the oldest unsettled request, and {@code next - head <= slots}
 * (slots far below the sequence space) so a wire sequence maps back to exactly one counter value.
 */
final class GtpClientFlow extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(GtpClientFlow.class);
    private static final long SETTLED = Long.MIN_VALUE;
    private static final byte CREATE = 1;
    private static final byte DELETE = 2;

    private final GtpLoadGenerator generator;
    private final int version;
    private final int seqMask;
    private final int slots;
    private final int mask;
    private final long[] sendNanos;
    private final long[] subscriber;
    private final byte[] kind;
    private final GtpV0Message v0 = new GtpV0Message();
    private final GtpV1Message v1 = new GtpV1Message();
    private final GtpV2Message v2 = new GtpV2Message();
    private final GtpV2Fteid fteid = new GtpV2Fteid();
    private Channel channel;
    private long head;
    private long next;
    private boolean flushPending;
    // Counters, event loop only.
    long creates;
    long accepted;
    long rejected;
    long lost;
    long deletes;
    long deletesAccepted;
    long deletesLost;
    long deletesSkipped;
    long unmatched;
    long inFlight;

    GtpClientFlow(GtpLoadGenerator generator, int version, int slots) {
        this.generator = generator;
        this.version = version;
        this.seqMask = version == 2 ? 0x7FFFFF : 0xFFFF; // v2: MSB marks Commands (gtp.md section 9)
        this.slots = slots;
        this.mask = slots - 1;
        this.sendNanos = new long[slots];
        this.subscriber = new long[slots];
        this.kind = new byte[slots];
        Arrays.fill(sendNanos, SETTLED);
    }

    /** Ring size for a window: room for out-of-order holes and deletes behind a slow head. */
    static int slotsFor(int window) {
        return Math.max(16, Integer.highestOneBit(window * 4 - 1) << 1);
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    private boolean roomFor() {
        return next - head < slots && channel != null && channel.isWritable();
    }

    /** Sends one Create unless the window or ring is full or the socket cannot take it. */
    boolean trySendCreate(long nowNanos) {
        if (!generator.sending() || inFlight >= generator.windowPerFlow() || !roomFor()) {
            return false;
        }
        long imsiRaw = generator.nextImsiRaw();
        int seq = (int) (next & seqMask);
        ByteBuf out = channel.alloc().ioBuffer(GtpRequestEncoder.MAX_LENGTH);
        long sub;
        switch (version) {
            case 0 -> {
                sub = GtpRequestEncoder.tid(imsiRaw, GtpLoadGenerator.NSAPI, generator.tidLayout());
                int label = generator.nextLocalId() & 0xFFFF;
                GtpRequestEncoder.writeV0Create(out, seq, sub, label, label, generator.ownAddress(), generator.apn());
            }
            case 2 -> {
                sub = imsiRaw;
                GtpRequestEncoder.writeV2Create(out, seq, imsiRaw, GtpLoadGenerator.EBI, generator.nextLocalId(),
                        generator.ownAddress(), generator.apn());
            }
            default -> {
                sub = imsiRaw;
                int teid = generator.nextLocalId();
                GtpRequestEncoder.writeV1Create(out, seq, imsiRaw, GtpLoadGenerator.NSAPI, teid, teid ^ 0x80000000,
                        generator.ownAddress(), generator.apn());
            }
        }
        record(CREATE, sub, nowNanos);
        creates++;
        channel.write(out, channel.voidPromise());
        flushPending = true;
        return true;
    }

    /** Churn: deletes the session the GGSN just granted (its TEID-C / v0 flow label). */
    private void sendDelete(int ggsnId, long sub, long nowNanos) {
        if (!roomFor()) {
            deletesSkipped++;
            return;
        }
        int seq = (int) (next & seqMask);
        ByteBuf out = channel.alloc().ioBuffer(GtpRequestEncoder.MAX_LENGTH);
        switch (version) {
            case 0 -> GtpRequestEncoder.writeV0Delete(out, seq, ggsnId & 0xFFFF, sub);
            case 2 -> GtpRequestEncoder.writeV2Delete(out, seq, ggsnId, GtpLoadGenerator.EBI);
            default -> GtpRequestEncoder.writeV1Delete(out, seq, ggsnId, GtpLoadGenerator.NSAPI);
        }
        record(DELETE, sub, nowNanos);
        deletes++;
        channel.write(out, channel.voidPromise());
        flushPending = true;
    }

    private void record(byte k, long sub, long nowNanos) {
        int slot = (int) (next & mask);
        sendNanos[slot] = nowNanos;
        subscriber[slot] = sub;
        kind[slot] = k;
        next++;
        inFlight++;
    }

    void fillWindow(long nowNanos) {
        while (trySendCreate(nowNanos)) {
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
            int slot = (int) (head & mask);
            if (sendNanos[slot] != SETTLED) {
                if (nowNanos - sendNanos[slot] < timeout) {
                    break;
                }
                sendNanos[slot] = SETTLED;
                if (kind[slot] == CREATE) {
                    lost++;
                } else {
                    deletesLost++;
                }
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
        LOG.debug("GTP flow {}: {}", ctx.channel().localAddress(), cause.toString());
    }

    private void onResponse(ByteBuf in, long now) {
        int type;
        int wireSeq;
        int cause;
        int ggsnId;
        switch (version) {
            case 0 -> {
                if (!v0.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v0.messageType();
                wireSeq = v0.sequence();
                cause = v0.ies().cause();
                ggsnId = v0.ies().teidControl(true);
            }
            case 2 -> {
                if (!v2.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v2.messageType();
                wireSeq = v2.sequence();
                cause = v2.cause();
                ggsnId = v2.fteid(1, fteid) ? fteid.teid() : 0;
            }
            default -> {
                if (!v1.wrap(in)) {
                    unmatched++;
                    return;
                }
                type = v1.messageType();
                wireSeq = v1.sequence();
                cause = v1.ies().cause();
                ggsnId = v1.ies().teidControl(false);
            }
        }
        long n = head + ((wireSeq - head) & seqMask);
        int slot = (int) (n & mask);
        if (n >= next || sendNanos[slot] == SETTLED || !typeMatches(kind[slot], type)) {
            unmatched++; // late (already lost), duplicate or foreign
            return;
        }
        long sent = sendNanos[slot];
        sendNanos[slot] = SETTLED;
        inFlight--;
        boolean ok = version == 2 ? GtpCause.classifyV2(cause) == GtpCause.Action.ACCEPTED
                : GtpCause.classifyV1(cause) == GtpCause.Action.ACCEPTED;
        if (kind[slot] == CREATE) {
            generator.recordLatency(now - sent);
            if (ok) {
                accepted++;
                if (generator.churn()) {
                    sendDelete(ggsnId, subscriber[slot], now);
                }
            } else {
                rejected++;
            }
        } else if (ok) {
            deletesAccepted++;
        }
        while (head < next && sendNanos[(int) (head & mask)] == SETTLED) {
            head++;
        }
    }

    private boolean typeMatches(byte k, int type) {
        if (version == 2) {
            return type == (k == CREATE ? GtpMessageType.V2_CREATE_SESSION_RESPONSE : GtpMessageType.V2_DELETE_SESSION_RESPONSE);
        }
        return type == (k == CREATE ? GtpMessageType.V1_CREATE_PDP_CONTEXT_RESPONSE : GtpMessageType.V1_DELETE_PDP_CONTEXT_RESPONSE);
    }

    void close(long timeoutMs) {
        if (channel != null) {
            channel.close().awaitUninterruptibly(timeoutMs);
        }
    }
}
