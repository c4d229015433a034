package io.mclb.probe;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

/**
 * One flush of a shared probe socket after the writes of a pass of its loop: the checks of one
 * {@link CheckGrid} slot write in one pass, so their requests leave in one sendmmsg instead of a
 * sendto each. Confined to the loop.
 */
final class GridFlush implements Runnable {
    private final EventLoop loop;
    private final Channel channel;
    private boolean queued;

    GridFlush(EventLoop loop, Channel channel) {
        this.loop = loop;
        this.channel = channel;
    }

    /** A write is pending: flush once the loop has run the tasks of this pass. */
    void request() {
        if (!queued) {
            queued = true;
            loop.execute(this);
        }
    }

    @Override
    public void run() {
        queued = false;
        if (channel.isOpen()) {
            channel.flush();
        }
    }
}
