package io.mclb.probe;

import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;

import java.net.InetSocketAddress;

/**
 * A request/answer probe over UDP (GTP echo, RADIUS Status-Server, DNS, custom udp): one socket of
 * its own toward one real, one request per run, the first answer from the real's address that the
 * type {@link #judge judges} decides the run. Confined to the context's loop; the socket is bound
 * asynchronously on first use, and a run started before the bind completes is sent then.
 */
public abstract class UdpCheck implements ProbeCheck {
    /** What {@link #judge} says about one datagram from the target. */
    protected enum Verdict { PASS, FAIL, NOT_MINE }

    private final ProbeContext ctx;
    private final InetSocketAddress target;
    private Channel channel;
    private boolean bound;
    private boolean closed;
    private ProbeResult inFlight;
    private String failReason;

    protected UdpCheck(ProbeContext ctx, InetSocketAddress target) {
        this.ctx = ctx;
        this.target = target;
    }

    /** The request of this run; {@code alloc} belongs to the probe's socket. */
    protected abstract ByteBuf request(ByteBufAllocator alloc);

    /**
     * Judges a datagram from the target. For {@link Verdict#FAIL} call {@link #because} first.
     * Must not throw on any content.
     */
    protected abstract Verdict judge(ByteBuf answer);

    /** Sets the reason reported with a {@link Verdict#FAIL}. */
    protected final void because(String reason) {
        failReason = reason;
    }

    protected final InetSocketAddress target() {
        return target;
    }

    @Override
    public String targetLabel() {
        return ProbeTargets.label(target) + " (udp)";
    }

    @Override
    public final void run(ProbeResult result) {
        inFlight = result;
        if (channel == null) {
            ChannelFuture f = UdpSockets.probe(target.getAddress()).group(ctx.loop()).handler(new Answers())
                    .bind(UdpSockets.ephemeral(target.getAddress()));
            channel = f.channel();
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    channel = null;
                    report(false, "cannot open a socket: " + done.cause().getMessage());
                    return;
                }
                bound = true;
                if (closed) {
                    f.channel().close();
                } else if (inFlight != null) {
                    send();
                }
            });
        } else if (bound) {
            send();
        }
    }

    private void send() {
        ByteBuf b;
        try {
            b = request(channel.alloc());
        } catch (RuntimeException e) {
            report(false, "cannot build the request: " + e);
            return;
        }
        // a void promise: no future and listener per check; a failed send reaches exceptionCaught
        channel.writeAndFlush(new DatagramPacket(b, target), channel.voidPromise());
    }

    @Override
    public final void cancel() {
        inFlight = null;
    }

    private void report(boolean ok, String reason) {
        ProbeResult r = inFlight;
        inFlight = null;
        if (r != null) {
            if (ok) {
                r.pass();
            } else {
                r.fail(reason);
            }
        }
    }

    @Override
    public final void close() {
        closed = true;
        inFlight = null;
        if (channel != null && bound) {
            channel.close();
        }
    }

    private final class Answers extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            try {
                if (msg instanceof DatagramPacket p && inFlight != null && target.equals(p.sender())) {
                    failReason = "rejected";
                    Verdict v = judge(p.content());
                    if (v != Verdict.NOT_MINE) {
                        report(v == Verdict.PASS, failReason);
                    }
                }
            } catch (RuntimeException e) {
                report(false, "unreadable answer: " + e);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            // a failed send, or ICMP port unreachable surfacing as a read error: the run fails, the
            // socket stays
            report(false, cause.toString());
        }
    }
}
