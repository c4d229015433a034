package io.mclb.perf.load;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sockets of a simulator: any number of bound UDP sockets sharing one event loop thread, which
 * therefore owns the simulator's state without locks.
 */
public final class UdpServer implements AutoCloseable {
    private static final long CLOSE_TIMEOUT_MS = 5_000;

    private final EventLoopGroup group = UdpSockets.newSingleThreadGroup();
    private final EventLoop loop = group.next();
    private final List<Channel> channels = new ArrayList<>();

    /** The event loop every socket runs on. */
    public EventLoop loop() {
        return loop;
    }

    /**
     * Binds one more socket (port 0: ephemeral) served by {@code handler}; returns the address
     * actually bound.
     *
     * @throws RuntimeException whatever Netty rethrows for a failed bind; the caller closes
     */
    public InetSocketAddress bind(InetSocketAddress address, ChannelHandler handler) {
        Channel channel = UdpSockets.bind(loop, address, handler);
        channels.add(channel);
        return (InetSocketAddress) channel.localAddress();
    }

    /** Closes the sockets and stops the loop; waits at most a few seconds. Idempotent. */
    @Override
    public void close() {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
    }
}
