package io.mclb.perf.gtp.sim;

import io.mclb.perf.load.UdpSockets;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;

/**
 * Netty UDP plumbing of the GTP simulator and load generator; kept for callers of this public
 * class, the choices themselves live in {@link UdpSockets}.
 */
public final class GtpTransport {
    /** Socket buffers sized like {@code rmem_max} on the target hosts: the default 208 KiB loses bursts. */
    public static final int SOCKET_BUFFER_BYTES = UdpSockets.SOCKET_BUFFER_BYTES;

    private GtpTransport() {
    }

    public static boolean epoll() {
        return UdpSockets.epoll();
    }

    /** See {@link UdpSockets#newSingleThreadGroup()}. */
    public static EventLoopGroup newSingleThreadGroup() {
        return UdpSockets.newSingleThreadGroup();
    }

    /** See {@link UdpSockets#channelFactory(InetAddress)}. */
    public static ChannelFactory<Channel> channelFactory(InetAddress address) {
        return UdpSockets.channelFactory(address);
    }
}
