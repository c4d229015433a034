package io.mclb.vserver;

import io.netty.channel.EventLoop;

/** The per-event-loop data path of one virtual server (flows or transactions). */
public interface Relay extends AutoCloseable {
    EventLoop loop();

    /** Closes the listener and upstream sockets and releases what it holds on reals. Call on {@link #loop()}. */
    @Override
    void close();
}
