package io.mclb.testing;

import io.netty.channel.EventLoop;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An event loop held in one of its tasks until {@link #close()}: datagrams sent to its sockets
 * meanwhile all wait in the kernel, so its next wait reports them in one wake-up (tests of what
 * one I/O pass does, without timing). Held at most 10 s.
 */
public final class HeldLoop implements AutoCloseable {
    private final CountDownLatch release = new CountDownLatch(1);

    private HeldLoop() {
    }

    /** Returns once {@code loop} runs the holding task. */
    public static HeldLoop hold(EventLoop loop) throws InterruptedException {
        HeldLoop h = new HeldLoop();
        CountDownLatch held = new CountDownLatch(1);
        loop.execute(() -> {
            held.countDown();
            try {
                h.release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!held.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the loop did not run the holding task within 10 s");
        }
        return h;
    }

    /** Lets the loop go on. */
    @Override
    public void close() {
        release.countDown();
    }
}
