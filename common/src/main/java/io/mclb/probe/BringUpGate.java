package io.mclb.probe;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Enhanced bring-up (Brocade ADX, seed 004): the checks of probes that have not yet passed on
 * their real go out in cycles rather than all at once or one at a time. Each {@link #cycle()}
 * (every 100 ms by default) starts at most {@code maxChecks} minus the checks still in flight, for
 * TCP types and the others separately ({@link BringUpClass}); a check stays in flight until it is
 * answered or times out ({@link #finished}), so a cycle only tops up what has been answered. With
 * 75 waiting and 50 allowed, the first cycle starts 50 and a later one the other 25 once answers
 * have come back.
 *
 * <p>Thread-safe: offers and completions come from every probe loop, cycles from one timer.
 * Waiting checks are kept in arrival order.
 */
final class BringUpGate {
    /** A check waiting for its turn; {@link #admitted()} must start it (on its own loop) and return. */
    interface Waiting {
        void admitted();
    }

    /**
     * What {@link #cycle()} returns when it started nothing, the usual case once every probed real
     * has passed: the cycle runs on an event loop every 100 ms, so it makes no array then. Shared,
     * never written.
     */
    private static final int[] NONE_STARTED = new int[BringUpClass.values().length];

    private final Queue<Waiting>[] waiting;
    private final AtomicInteger[] inFlight;
    private final AtomicLong[] started;
    private volatile int maxChecks;

    @SuppressWarnings("unchecked")
    BringUpGate(int maxChecks) {
        int n = BringUpClass.values().length;
        waiting = new Queue[n];
        inFlight = new AtomicInteger[n];
        started = new AtomicLong[n];
        for (int i = 0; i < n; i++) {
            waiting[i] = new ConcurrentLinkedQueue<>();
            inFlight[i] = new AtomicInteger();
            started[i] = new AtomicLong();
        }
        this.maxChecks = maxChecks;
    }

    /** A reload changed {@code max-checks}: the next cycle tops up to the new cap. */
    void maxChecks(int n) {
        maxChecks = n;
    }

    int maxChecks() {
        return maxChecks;
    }

    void offer(BringUpClass c, Waiting w) {
        waiting[c.ordinal()].add(w);
    }

    /** A check admitted by a cycle was answered, timed out or abandoned: its slot is free for the next cycle. */
    void finished(BringUpClass c) {
        inFlight[c.ordinal()].decrementAndGet();
    }

    /**
     * One cycle: admits, per class, up to {@code maxChecks} minus the checks in flight.
     *
     * @return the checks started this cycle, indexed by {@link BringUpClass#ordinal()}; a shared
     *         array of zeros when none started, which callers must not write to
     */
    int[] cycle() {
        int[] out = NONE_STARTED;
        for (int i = 0; i < waiting.length; i++) {
            int room = maxChecks - inFlight[i].get();
            while (room-- > 0) {
                Waiting w = waiting[i].poll();
                if (w == null) {
                    break;
                }
                inFlight[i].incrementAndGet();
                started[i].incrementAndGet();
                if (out == NONE_STARTED) {
                    out = new int[waiting.length];
                }
                out[i]++;
                w.admitted();
            }
        }
        return out;
    }

    int inFlight(BringUpClass c) {
        return inFlight[c.ordinal()].get();
    }

    int waiting(BringUpClass c) {
        return waiting[c.ordinal()].size();
    }

    /** Bring-up checks started since start, for {@code mclb_probe_bringup_checks_total}. */
    long started(BringUpClass c) {
        return started[c.ordinal()].get();
    }
}
