package io.mclb.net;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;

/**
 * Work an event loop runs once at the end of its current I/O pass: after every socket that one
 * epoll_wait (io_uring completion batch, select) reported has been read, before the loop's tasks.
 * The relays flush here instead of at the end of each socket's read batch, so the answers read
 * from many upstream sockets in one wake-up leave the virtual address in one sendmmsg, as a C
 * relay that drains every ready socket before it writes would send them (perf/README.md, "Issue
 * 15: plain relay against the C relay"). Nothing is allocated per pass: the queue is an array that
 * grows once to the number of relays on the loop.
 *
 * <p>Installed by {@link Transports#newGroup} around each loop's {@link IoHandler}; a thread that
 * is not such a loop has none ({@link #ofThisLoop()} is null) and callers do the work at once.
 * Loop-confined.
 */
public final class IoPassEnd {
    private static final Logger LOG = LoggerFactory.getLogger(IoPassEnd.class);
    private static final FastThreadLocal<IoPassEnd> LOOP = new FastThreadLocal<>();

    private Runnable[] due = new Runnable[8];
    private int count;
    private boolean inPass;
    private boolean warned;

    private IoPassEnd() {
    }

    /** This loop thread's, or null when the current thread is not a loop of {@link Transports#newGroup}. */
    public static IoPassEnd ofThisLoop() {
        return LOOP.getIfExists();
    }

    /** {@code factory}'s handlers, each running its loop's pass-end work after every I/O pass. */
    public static IoHandlerFactory around(IoHandlerFactory factory) {
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                return new Handler(factory.newHandler(executor));
            }

            @Override
            public boolean isChangingThreadSupported() {
                return factory.isChangingThreadSupported();
            }
        };
    }

    /**
     * Runs {@code task} once when the current I/O pass ends, or now when the loop is not in one
     * (a read continued from a task: its batch has already ended). Adding the same task twice runs
     * it twice; callers keep their own "queued" flag.
     */
    public void runAtEnd(Runnable task) {
        if (!inPass) {
            runSafely(task);
            return;
        }
        if (count == due.length) {
            due = Arrays.copyOf(due, count * 2);
        }
        due[count++] = task;
    }

    /** The work queued in this pass; work queued while it runs waits for the next pass. */
    private void endPass() {
        inPass = false;
        int n = count;
        for (int i = 0; i < n; i++) {
            Runnable task = due[i];
            due[i] = null;
            runSafely(task);
        }
        // runSafely runs work queued meanwhile at once (inPass is false), so nothing was appended
        count = 0;
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            if (!warned) {
                warned = true; // once per loop: never a log line per pass
                LOG.error("work at the end of an I/O pass failed", t);
            }
        }
    }

    /** A loop's I/O handler with the pass end after {@link IoHandler#run}. */
    private static final class Handler implements IoHandler {
        private final IoHandler io;
        private final IoPassEnd end = new IoPassEnd();

        Handler(IoHandler io) {
            this.io = io;
        }

        @Override
        public void initialize() {
            LOOP.set(end); // on the loop thread, before its first pass
            io.initialize();
        }

        @Override
        public int run(IoHandlerContext context) {
            end.inPass = true;
            try {
                return io.run(context);
            } finally {
                end.endPass();
            }
        }

        @Override
        public void prepareToDestroy() {
            io.prepareToDestroy();
        }

        @Override
        public void destroy() {
            try {
                io.destroy();
            } finally {
                LOOP.remove();
            }
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return io.register(handle);
        }

        @Override
        public void wakeup() {
            io.wakeup();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return io.isCompatible(handleType);
        }
    }
}
