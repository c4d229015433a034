package io.mclb.feedback.dfp;

import io.mclb.net.SecurityLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * What both ends of a DFP connection do with a message the {@link DfpFrameDecoder} passed on:
 * re-wrap it in the connection's flyweight, check the password (a message that fails it closes the
 * connection and is counted as {@link DfpRefusal#SECURITY}), then hand it to the role. Framing
 * refusals of the decoder arrive as events and are reported the same way. One instance per
 * connection, on its event loop.
 */
abstract class DfpHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(DfpHandler.class);
    private static final String REFUSED = "dfp: message refused, its Security TLV is missing or its digest does not"
            + " verify (reason security): the peers disagree on the DFP password";

    protected final DfpMessage msg = new DfpMessage();
    protected final DfpWriter writer = new DfpWriter();
    private final DfpSecurity security = new DfpSecurity();

    abstract DfpPasswords passwords();

    abstract long nowNs();

    /** The role's log of refused passwords (once per peer address per minute). */
    abstract SecurityLog securityLog();

    /** The stream was refused (the connection is being closed). */
    abstract void refused(DfpRefusal reason);

    /** An accepted message, in {@link #msg}; its buffer is released afterwards. */
    abstract void onMessage(ChannelHandlerContext ctx);

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object m) {
        ByteBuf frame = (ByteBuf) m;
        try {
            if (msg.wrap(frame) != null) {
                throw new IllegalStateException("the frame decoder passed an inconsistent message");
            }
            if (!passwords().accepts(msg, security, nowNs())) {
                refused(DfpRefusal.SECURITY);
                if (ctx.channel().remoteAddress() instanceof InetSocketAddress peer) {
                    securityLog().warn(peer.getAddress(), "dfp", REFUSED);
                }
                ctx.close();
                return;
            }
            onMessage(ctx);
        } finally {
            frame.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof DfpFrameDecoder.Refused r) {
            refused(r.reason());
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a reset by the peer, mostly: the close reports it
        LOG.debug("DFP connection {}: {}", ctx.channel().remoteAddress(), cause.toString(), cause);
        ctx.close();
    }
}
