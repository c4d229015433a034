package io.mclb.ha.replication;

import io.mclb.ha.replication.ReplicationMetrics.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One accepted connection on the active side: waits for a verified HELLO, then is the stream to
 * that standby, until it closes. The standby sends nothing after its HELLO, so any later frame is
 * refused and closes the connection.
 *
 * <p>On the replication event loop, like every handler of the connection.
 */
final class StandbyStream extends ChannelInboundHandlerAdapter {
    /** The ActiveSide's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSide.class);

    private final ActiveSide side;
    private final ReplicationMetrics metrics;
    private final Supplier<PasswordRollOver> rollOver;
    /** Keyed with the password until the HELLO is verified, with the session key after. */
    private FrameCodec codec;
    private Channel ch;
    private boolean verified;
    /** Null until verified. */
    private StreamFrames frames;
    /** Null until verified. */
    private SnapshotSender snapshots;
    private ScheduledFuture<?> heartbeat;
    /** The standby's HELLO asked for binding frames; set before the stream is attached. */
    private volatile boolean wantsBindings;

    StandbyStream(ActiveSide side, String password, ReplicationMetrics metrics, Supplier<PasswordRollOver> rollOver) {
        this.side = side;
        this.metrics = metrics;
        this.rollOver = rollOver;
        this.codec = new FrameCodec(password);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ch = ctx.channel();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (verified) {
                refuse(Refusal.MALFORMED, "unexpected frame from the standby after HELLO");
            } else if (frame.readableBytes() != FrameCodec.HEADER + FrameCodec.NONCE + FrameCodec.MAC) {
                refuse(Refusal.MALFORMED, "HELLO of " + frame.readableBytes() + " bytes");
            } else if (!codec.verify(frame) && !verifiedWithPreviousPassword(frame)) {
                refuse(Refusal.BAD_HMAC, "HELLO with a bad HMAC (wrong password?)");
            } else if (frame.getByte(frame.readerIndex()) != FrameType.HELLO.code
                    || frame.getLong(frame.readerIndex() + 2) != 0) {
                refuse(Refusal.MALFORMED, "first frame is not a HELLO with sequence 0");
            } else {
                byte[] nonce = new byte[FrameCodec.NONCE];
                frame.getBytes(frame.readerIndex() + FrameCodec.HEADER, nonce);
                codec.useSessionKey(nonce);
                verified = true;
                wantsBindings = (frame.getByte(frame.readerIndex() + 1) & FrameType.HELLO_BINDINGS) != 0;
                metrics.framesReceived.increment();
                frames = new StreamFrames(ch, codec, metrics);
                snapshots = side.snapshotSender(frames, wantsBindings);
                side.attach(this);
            }
        } finally {
            frame.release();
        }
    }

    private void refuse(Refusal why, String what) {
        metrics.refused(why);
        LOG.warn("replication: refused {} from {}: {}", why.label(), ch.remoteAddress(), what);
        ch.close();
    }

    /**
     * During a password roll-over: true if the HELLO is keyed with the previous password. This
     * stream then stays keyed with it and is closed when the roll-over window ends.
     */
    private boolean verifiedWithPreviousPassword(ByteBuf hello) {
        PasswordRollOver r = rollOver.get();
        if (r == null) {
            return false;
        }
        FrameCodec previous = new FrameCodec(r.password());
        if (!previous.verify(hello)) {
            return false;
        }
        codec = previous;
        long left = r.remainingNanos(System.nanoTime());
        LOG.warn("replication: standby {} uses the previous password; accepted for {} s more (roll-over)",
                ch.remoteAddress(), TimeUnit.NANOSECONDS.toSeconds(left));
        ch.eventLoop().schedule(() -> {
            if (ch.isActive()) {
                LOG.warn("replication: password roll-over ended; closing the stream from {} keyed with the "
                        + "previous password", ch.remoteAddress());
                ch.close();
            }
        }, left, TimeUnit.NANOSECONDS);
        return true;
    }

    /** After {@link ActiveSide#attach}: a heartbeat every {@code interval}, so the standby can tell a silent active from a dead one. */
    void startHeartbeat(Duration interval) {
        long ms = interval.toMillis();
        heartbeat = ch.eventLoop().scheduleAtFixedRate(frames::writeHeartbeat, ms, ms, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (snapshots != null) {
            snapshots.abandon();
        }
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        side.detached(this);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ch.isWritable()) {
            side.writable(this);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent hs && !hs.isSuccess()) {
            metrics.refused(Refusal.TLS);
            LOG.warn("replication: TLS handshake with {} failed: {}", ch.remoteAddress(), hs.cause().toString());
            ch.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            refuse(Refusal.MALFORMED, cause.getMessage());
        } else {
            LOG.debug("replication: connection from {} failed", ch.remoteAddress(), cause);
            ch.close();
        }
    }

    Channel channel() {
        return ch;
    }

    SocketAddress remoteAddress() {
        return ch.remoteAddress();
    }

    /** Null until verified. */
    StreamFrames frames() {
        return frames;
    }

    /** True if the standby applies binding frames (an older standby would refuse them as malformed). */
    boolean wantsBindings() {
        return wantsBindings;
    }

    /** Null until verified. */
    SnapshotSender snapshots() {
        return snapshots;
    }
}
