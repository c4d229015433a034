package io.mclb.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * Reads a probe socket shared by many checks ({@link IcmpSocket}, {@link UdpProbeSocket}): each
 * datagram goes to the socket's matcher and is released after it. A read error belongs to no one
 * check (an unconnected socket gets no ICMP errors), so it is only logged at debug: the checks
 * waiting on the socket time out.
 */
final class SharedSocketReader extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(SharedSocketReader.class);

    private final String socket;
    private final Consumer<DatagramPacket> matcher;

    SharedSocketReader(String socket, Consumer<DatagramPacket> matcher) {
        this.socket = socket;
        this.matcher = matcher;
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        try {
            if (msg instanceof DatagramPacket p) {
                matcher.accept(p);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        LOG.debug("{}: read error: {}", socket, cause.toString());
    }
}
