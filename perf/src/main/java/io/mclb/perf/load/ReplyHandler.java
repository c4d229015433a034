package io.mclb.perf.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulator socket's handler: the protocol turns each request into at most one response
 * ({@link #answer}), which goes back to the request's source, either at once (flushed once per
 * read batch) or {@code latencyNanos} later.
 */
public abstract class ReplyHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(ReplyHandler.class);

    private final long latencyNanos;
    private final String label;

    /**
     * @param latencyNanos delay of every response; 0 = none
     * @param label names the simulator in debug logs
     */
    protected ReplyHandler(long latencyNanos, String label) {
        this.latencyNanos = latencyNanos;
        this.label = label;
    }

    /** The response to {@code request} (not to be released by the callee), or null for none. */
    protected abstract ByteBuf answer(ByteBuf request, ByteBufAllocator alloc);

    @Override
    protected final void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf response = answer(packet.content(), ctx.alloc());
        if (response == null) {
            return;
        }
        DatagramPacket out = new DatagramPacket(response, packet.sender());
        if (latencyNanos > 0) {
            // One scheduled task per delayed reply: acceptable for a simulator, and it keeps replies in arrival order.
            Channel ch = ctx.channel();
            ch.eventLoop().schedule(() -> ch.writeAndFlush(out, ch.voidPromise()), latencyNanos, TimeUnit.NANOSECONDS);
        } else if (ctx.channel().isWritable()) {
            ctx.write(out, ctx.voidPromise());
        } else {
            // Send buffer full: a real server drops here too, and queueing would grow without bound.
            out.release();
        }
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        // One flush per read batch lets epoll send the replies of a burst together.
        ctx.flush();
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // ICMP port unreachable from a vanished client surfaces here; keep serving.
        LOG.debug("{} {}: {}", label, ctx.channel().localAddress(), cause.toString());
    }
}
