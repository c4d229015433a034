package io.mclb.testing;

import io.netty.util.ResourceLeakDetector;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Callable;

/**
 * What mclb's event loop allocates per request while a test drives it: the loop thread's own
 * allocation counter (HotSpot's {@code ThreadMXBean}) over a window of requests, less an allowance
 * of {@link #PER_SECOND_ALLOWANCE} bytes per second for what the loop allocates per tick of time
 * rather than per request (the probe scheduler's cycle, timers), which grows with the window's
 * length on a slow box. Expects one {@code mclb-loop} thread ({@code mclb event-loops 1}).
 */
public final class LoopAllocation {
    public static final int PER_SECOND_ALLOWANCE = 4096;

    /** One window: loop bytes, its seconds, the requests answered in it. */
    public record Window(long bytes, double seconds, int requests) {
        public double perRequest() {
            return perRequest(PER_SECOND_ALLOWANCE);
        }

        /**
         * Bytes per request less {@code allowancePerSecond} bytes per second of the window: for a
         * test whose loop was measured to allocate less per tick than the default allows, so that
         * a slow window cannot hide a per-request regression behind the allowance.
         */
        public double perRequest(int allowancePerSecond) {
            return (bytes - allowancePerSecond * seconds) / requests;
        }
    }

    private LoopAllocation() {
    }

    /**
     * Runs {@code body} (a warm-up and its {@link #measure} windows) with Netty's leak detector
     * off, as {@code Main} runs mclb: the detector samples one buffer in 128 on purpose and its
     * records would count as the loop's allocation. The level before is restored after.
     */
    public static <T> T asMclbRuns(Callable<T> body) throws Exception {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            return body.call();
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /** Runs {@code requests} (which returns the requests answered) and measures the loop over it. */
    public static Window measure(Callable<Integer> requests) throws Exception {
        long loop = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("mclb-loop"))
                .mapToLong(Thread::getId).findFirst().orElseThrow();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(loop);
        long t0 = System.nanoTime();
        int answered = requests.call();
        long bytes = threads.getThreadAllocatedBytes(loop) - before;
        return new Window(bytes, (System.nanoTime() - t0) / 1e9, answered);
    }
}
