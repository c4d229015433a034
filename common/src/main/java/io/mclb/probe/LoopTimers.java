package io.mclb.probe;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link CheckWheel} of each event loop, advanced by one fixed-rate task of the loop on the
 * {@link CheckGrid} while it holds a timer: every probe check and timeout of the loop costs that
 * one scheduled task per grid point instead of a task each. Used and advanced on its loop only.
 */
final class LoopTimers {
    private static final Map<EventLoop, LoopTimers> OPEN = new ConcurrentHashMap<>();

    private final EventLoop loop;
    private final CheckWheel wheel;
    private ScheduledFuture<?> ticker;

    private LoopTimers(EventLoop loop) {
        this.loop = loop;
        this.wheel = new CheckWheel(System.nanoTime());
    }

    /** The timers of {@code loop}. On the loop. */
    static LoopTimers of(EventLoop loop) {
        return OPEN.computeIfAbsent(loop, LoopTimers::new);
    }

    /** See {@link CheckWheel#every}. */
    CheckWheel.Entry every(Runnable task, long delayMs, long intervalNs) {
        return ticking(wheel.every(task, System.nanoTime(), delayMs, intervalNs));
    }

    /** See {@link CheckWheel#once}. */
    CheckWheel.Entry once(Runnable task, long delayNs) {
        return ticking(wheel.once(task, System.nanoTime(), delayNs));
    }

    private CheckWheel.Entry ticking(CheckWheel.Entry e) {
        if (ticker == null) {
            ticker = loop.scheduleAtFixedRate(this::tick, CheckGrid.delayNs(System.nanoTime(), 0), CheckWheel.SLOT_NS,
                    TimeUnit.NANOSECONDS);
        }
        return e;
    }

    private void tick() {
        wheel.advance(System.nanoTime());
        if (wheel.live() == 0) { // nothing left to time on this loop: no wake-ups until the next probe
            ticker.cancel(false);
            ticker = null;
            OPEN.remove(loop, this);
        }
    }
}
