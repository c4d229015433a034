package io.mclb.probe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;

/**
 * The timers of every probe check on one event loop, on the {@link CheckGrid}: a timing wheel
 * of {@value #SLOTS} slots of {@value CheckGrid#SLOT_MS} ms, advanced by the loop once per grid
 * point ({@link #advance}). A periodic entry stays in the wheel and moves on by its interval each
 * time it runs (fixed rate: the interval is counted from the previous due time, not from when the
 * loop got to it); a one-shot entry (a check's timeout) leaves it. One slot holds the entries due
 * at its tick or at a later revolution; an interval longer than a revolution is visited once per
 * revolution and skipped until due.
 *
 * <p>Why not the loop's scheduled-task queue: 2,000 reals at 1 s put a thousand periodic tasks in
 * each loop's heap, and every check paid a removal and an insertion there (about twenty random
 * reads of other tasks), a hand-over through the loop's task queue and the periodic task's own
 * bookkeeping. Here a grid point costs one scheduled task per loop and a walk over one slot's
 * array. Time comes in as {@code nowNs} (tests drive it by hand). Confined to one thread.
 */
final class CheckWheel {
    private static final Logger LOG = LoggerFactory.getLogger(CheckWheel.class);
    /** 10.24 s: checks at intervals up to 10 s (IOS's default) are only visited when due. */
    static final int SLOTS = 512;
    static final long SLOT_NS = CheckGrid.SLOT_MS * 1_000_000L;

    /** One timer; {@link #cancel()} it to stop it (it leaves its slot when the wheel next passes). */
    static final class Entry {
        private final Runnable task;
        /** 0 for a one-shot timer. */
        private final long intervalTicks;
        private long dueTick;
        private boolean cancelled;
        private CheckWheel wheel;

        private Entry(Runnable task, long intervalTicks, long dueTick, CheckWheel wheel) {
            this.task = task;
            this.intervalTicks = intervalTicks;
            this.dueTick = dueTick;
            this.wheel = wheel;
        }

        /** Stops the timer; idempotent. */
        void cancel() {
            if (!cancelled) {
                cancelled = true;
                if (wheel != null) {
                    wheel.live--;
                    wheel = null;
                }
            }
        }

        boolean cancelled() {
            return cancelled;
        }
    }

    private final Entry[][] slots = new Entry[SLOTS][];
    private final int[] sizes = new int[SLOTS];
    private Entry[] due = new Entry[16];
    /** The last tick whose slot ran: an entry added now is due at the next tick at the earliest. */
    private long lastTick;
    /** Inside {@link #advance}: {@link #lastTick} is the grid point whose timers run. */
    private boolean advancing;
    private int live;

    CheckWheel(long nowNs) {
        lastTick = Math.floorDiv(nowNs, SLOT_NS);
    }

    /**
     * A periodic timer: first due at the first grid point at least {@code delayMs} after
     * {@code nowNs} (see {@link CheckGrid#delayNs}), then every {@code intervalNs} (in whole
     * slots, at least one).
     */
    Entry every(Runnable task, long nowNs, long delayMs, long intervalNs) {
        long first = Math.floorDiv(nowNs + CheckGrid.delayNs(nowNs, delayMs), SLOT_NS);
        return add(new Entry(task, Math.max(1, intervalNs / SLOT_NS), first, this));
    }

    /**
     * A one-shot timer {@code delayNs} after now, on the grid: counted from the grid point being
     * run when called from a timer (a check started by its tick times out exactly that long after
     * its tick, as a timeout of one interval does at the next tick), else from {@code nowNs},
     * rounded up to the next grid point (never early, at most one slot late).
     */
    Entry once(Runnable task, long nowNs, long delayNs) {
        long from = advancing ? lastTick * SLOT_NS : nowNs;
        return add(new Entry(task, 0, Math.floorDiv(from + delayNs + SLOT_NS - 1, SLOT_NS), this));
    }

    private Entry add(Entry e) {
        e.dueTick = Math.max(e.dueTick, lastTick + 1);
        put(e);
        live++;
        return e;
    }

    /** Timers not cancelled and not yet spent. */
    int live() {
        return live;
    }

    /**
     * Runs every timer due up to {@code nowNs}, tick by tick (a loop that was late catches up
     * in order, as a fixed-rate task would). A timer that throws is logged and stopped.
     */
    void advance(long nowNs) {
        long to = Math.floorDiv(nowNs, SLOT_NS);
        advancing = true;
        try {
            runUpTo(to);
        } finally {
            advancing = false;
        }
    }

    private void runUpTo(long to) {
        while (lastTick < to) {
            long tick = ++lastTick;
            int n = collectDue(tick);
            for (int i = 0; i < n; i++) {
                Entry e = due[i];
                due[i] = null;
                if (e.cancelled) {
                    continue; // stopped by a timer that ran before it in this tick
                }
                if (e.intervalTicks == 0) {
                    e.cancel(); // spent
                }
                try {
                    e.task.run();
                } catch (RuntimeException ex) {
                    LOG.warn("probe timer failed, stopped: {}", ex.toString());
                    e.cancel();
                }
            }
        }
    }

    /**
     * Takes the entries due at {@code tick} into {@link #due}, drops cancelled ones from its slot
     * and moves the periodic ones on by their interval; they run only once the slots are
     * consistent, since a timer may add or cancel others.
     */
    private int collectDue(long tick) {
        int s = slotOf(tick);
        Entry[] es = slots[s];
        int n = sizes[s];
        int count = 0;
        int i = 0;
        while (i < n) {
            Entry e = es[i];
            if (!e.cancelled && e.dueTick > tick) {
                i++;
                continue; // a later revolution
            }
            if (!e.cancelled) {
                if (count == due.length) {
                    due = Arrays.copyOf(due, count * 2);
                }
                due[count++] = e;
                if (e.intervalTicks != 0) {
                    e.dueTick += e.intervalTicks;
                    if (slotOf(e.dueTick) == s) {
                        i++;
                        continue; // an interval of whole revolutions: it stays
                    }
                    put(e); // another slot: this one's array is not touched
                }
            }
            es[i] = es[--n]; // out of this slot; order within a slot does not matter
            es[n] = null;
        }
        sizes[s] = n;
        return count;
    }

    private void put(Entry e) {
        int s = slotOf(e.dueTick);
        Entry[] es = slots[s];
        if (es == null) {
            es = slots[s] = new Entry[8];
        } else if (sizes[s] == es.length) {
            es = slots[s] = Arrays.copyOf(es, es.length * 2);
        }
        es[sizes[s]++] = e;
    }

    private static int slotOf(long tick) {
        return (int) Math.floorMod(tick, (long) SLOTS);
    }
}
