package io.mclb.ha.group;

import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@code mclb-ha} thread: each turn runs the queued tasks, ticks every group, then waits on the
 * hello sockets for at most a tick. Group state is confined to this thread; other threads
 * {@link #submit} their work to it.
 *
 * <p>The tick is a fifth of the shortest hello period, between 1 and 50 ms: a group's timer fires at
 * most a tick late.
 */
final class GroupThread {
    /** The manager's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(GroupManager.class);
    private static final long JOIN_MS = 2000;

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final RunningGroups groups;
    private final HelloSockets sockets;
    private final HelloReceiver receiver;
    private final NanoClock clock;
    /** Changed by a reload, on this thread. */
    private volatile long tickMs;
    private volatile boolean running;
    private Thread thread;

    GroupThread(RunningGroups groups, HelloSockets sockets, HelloReceiver receiver, NanoClock clock) {
        this.groups = groups;
        this.sockets = sockets;
        this.receiver = receiver;
        this.clock = clock;
        this.tickMs = tickMsFor(groups.configs());
    }

    static long tickMsFor(List<GroupConfig> configs) {
        int minHello = configs.stream().mapToInt(GroupConfig::helloMs).min().orElse(Integer.MAX_VALUE);
        return Math.max(1, Math.min(50, minHello / 5));
    }

    /** On this thread: the hello periods changed. */
    void retick() {
        tickMs = tickMsFor(groups.configs());
    }

    void start() {
        running = true;
        thread = new Thread(this::loop, "mclb-ha");
        thread.setDaemon(true);
        thread.start();
    }

    boolean running() {
        return running;
    }

    private void loop() {
        while (running) {
            try {
                Runnable t;
                while ((t = tasks.poll()) != null) {
                    t.run();
                }
                long now = clock.nanoTime();
                for (StandbyGroup g : groups.all()) {
                    g.tick(now);
                }
                sockets.receive(tickMs, receiver);
            } catch (IOException | RuntimeException e) {
                LOG.warn("HA loop error", e);
            }
        }
    }

    /** Any thread: runs {@code task} on this thread at the start of its next turn. */
    void submit(Runnable task) {
        tasks.add(task);
        sockets.wakeup();
    }

    /**
     * Any thread: runs {@code task} on this thread and waits for its answer (bounded by a few seconds,
     * then throws): the operator's actions answer with what they did.
     */
    <T> T call(java.util.function.Supplier<T> task) {
        java.util.concurrent.CompletableFuture<T> f = new java.util.concurrent.CompletableFuture<>();
        submit(() -> {
            try {
                f.complete(task.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(JOIN_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the mclb-ha thread", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the mclb-ha thread did not answer: " + e, e);
        }
    }

    /** Runs {@code last} as this thread's final task and waits for the thread to end (bounded). */
    void stopAfter(Runnable last) {
        submit(() -> {
            last.run();
            running = false;
        });
        join();
        running = false;
    }

    /** Ends the thread at once, whatever is queued (a crash), and waits for it (bounded). */
    void halt() {
        running = false;
        sockets.wakeup();
        join();
    }

    private void join() {
        try {
            thread.join(JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
