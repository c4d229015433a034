package io.mclb.testing;

import io.netty.util.ResourceLeakDetector;

import java.lang.management.ManagementFactory;

/**
 * Bytes an mclb event loop allocates per answered request, for the allocation tests of each path:
 * the loop thread's own allocation counter over a window of requests after a warm-up, with Netty's
 * leak detector off (it samples 1 buffer in 128 on purpose, perf/README.md "Issue 15"), less an
 * allowance for what the loop allocates per tick of time rather than per request (the probe
 * scheduler's 100 ms cycle, timers), which grows with the window's length on a slow box. Needs a
 * runtime with one event loop.
 */
public final class LoopAllocation {
    /** Allowed per second of the window for what is not per request. */
    public static final int BYTES_PER_SECOND = 4096;

    /** Sends {@code count} requests and returns how many were answered. */
    public interface Exchange {
        int run(int count) throws Exception;
    }

    /** @param bytes allocated by the loop over the window, {@code seconds} long, {@code answered} requests */
    public record Window(double perRequest, long bytes, double seconds, int answered) {
    }

    private LoopAllocation() {
    }

    /** Warms with {@code warm} requests (JIT, pools, tables), then measures {@code count}. */
    public static Window perRequest(Exchange exchange, int warm, int count) throws Exception {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        try {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
            exchange.run(warm);
            long loop = loopThread();
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getThreadAllocatedBytes(loop);
            long t0 = System.nanoTime();
            int answered = exchange.run(count);
            long bytes = threads.getThreadAllocatedBytes(loop) - before;
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Window((bytes - BYTES_PER_SECOND * seconds) / answered, bytes, seconds, answered);
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    private static long loopThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("mclb-loop"))
                .mapToLong(Thread::getId).findFirst().orElseThrow();
    }
}
