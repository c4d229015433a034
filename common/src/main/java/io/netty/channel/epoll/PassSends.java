package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.PlatformDependent;

import java.util.concurrent.RejectedExecutionException;

/**
 * One event loop's sends of the current I/O pass: the {@link MclbDatagramChannel}s whose queued
 * datagrams wait for the pass to end, and the arena their small datagrams were copied into.
 *
 * <p>Why: a relay flushes at the end of each channel's read, so an I/O pass that read answers from
 * 22 upstream sockets made 22 sendmmsg on the listener, 2-3 datagrams each. Sending once per
 * channel when the pass ends (all ready channels read, the loop's tasks run) makes that one call.
 * Holding the datagrams themselves until then pinned each read's 144 KB pooled receive buffer (a
 * 200-byte answer is a slice of it), and the pool grew new zeroed chunks (perf/README.md, "Issue
 * 15: sends straight into the loop's sendmmsg vector"). So a channel's flush copies each datagram
 * of up to {@link #MAX_COPIED} bytes here and releases it: the receive buffer goes back to the pool
 * when its read ends, as before, and only the arena's copy waits.
 *
 * <p>The pass end is a tail task of the loop ({@link SingleThreadEventLoop#executeAfterEventLoopIteration}),
 * queued by the first flush of a pass: the same {@code Runnable} every pass, the channels in a
 * reused array, the arena allocated once per loop. Nothing allocates per pass. A channel that
 * cannot send everything when the pass ends (its socket buffer full: EPOLLOUT armed) moves what
 * still lies in the arena into pooled buffers of its own before the arena is reused.
 *
 * <p>Confined to one event loop thread; the memory lives as long as that thread.
 */
final class PassSends {
    /** Largest datagram copied (most signalling is under 1 KB); larger ones keep the flush-now path. */
    static final int MAX_COPIED = 2048;
    /** Arena bytes per loop: over 2,000 answers of 200 bytes, 256 of the largest copied. */
    static final int ARENA_BYTES = 512 * 1024;

    private static final FastThreadLocal<PassSends> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected PassSends initialValue() {
            return new PassSends();
        }

        @Override
        protected void onRemoval(PassSends p) {
            p.release();
        }
    };

    private final int arenaBytes;
    /** The arena's native memory (0 once freed); {@code used} bytes of it hold this pass's copies. */
    private long arena;
    private int used;
    private MclbDatagramChannel[] waiting = new MclbDatagramChannel[64];
    private int waitingCount;
    /** The tail task is queued (or running: channels added meanwhile are sent by the same run). */
    private boolean endQueued;
    private final Runnable end = this::endPass;

    private PassSends() {
        this(ARENA_BYTES);
    }

    /** A pass with an arena of {@code arenaBytes} (tests; the loops' is {@link #ARENA_BYTES}). */
    PassSends(int arenaBytes) {
        this.arenaBytes = arenaBytes;
        arena = PlatformDependent.allocateMemory(arenaBytes);
    }

    /** This loop thread's pass. */
    static PassSends ofThisLoop() {
        return PER_LOOP.get();
    }

    /**
     * Makes sure the pass end will run on {@code loop}: false when it cannot (not a loop with tail
     * tasks, shutting down), and the caller sends now.
     */
    boolean armed(EventLoop loop) {
        if (endQueued) {
            return true;
        }
        if (arena == 0 || !(loop instanceof SingleThreadEventLoop l) || l.isShuttingDown()) {
            return false;
        }
        try {
            l.executeAfterEventLoopIteration(end);
        } catch (RejectedExecutionException e) {
            return false;
        }
        endQueued = true;
        return true;
    }

    /** Bytes the arena can still take (each copy rounded up to 8). */
    int room() {
        return arenaBytes - used;
    }

    /** Bytes a copy of {@code length} takes from the arena. */
    static int footprint(int length) {
        return (length + 7) & ~7;
    }

    /** Copies {@code buf}'s readable bytes into the arena (the caller checked {@link #room}); their address there. */
    long copy(ByteBuf buf) {
        int length = buf.readableBytes();
        long at = arena + used;
        PlatformDependent.copyMemory(buf.memoryAddress() + buf.readerIndex(), at, length);
        used += footprint(length);
        return at;
    }

    /** {@code ch} has datagrams for the pass end (once per pass: the channel keeps the mark). */
    void add(MclbDatagramChannel ch) {
        if (waitingCount == waiting.length) {
            waiting = java.util.Arrays.copyOf(waiting, waitingCount * 2);
        }
        waiting[waitingCount++] = ch;
    }

    /** Channels waiting for the pass end (tests). */
    int waiting() {
        return waitingCount;
    }

    /**
     * The pass ended: every waiting channel sends (a channel sent to while this runs, from an
     * error handler, joins the same run), then whatever is still in the arena moves out of it, and
     * the arena starts over.
     */
    private void endPass() {
        try {
            for (int i = 0; i < waitingCount; i++) {
                waiting[i].endPass();
            }
        } finally {
            for (int i = 0; i < waitingCount; i++) {
                waiting[i].leaveArena();
                waiting[i] = null;
            }
            waitingCount = 0;
            used = 0;
            endQueued = false;
        }
    }

    /** Frees the arena (when the loop thread ends; tests). */
    void release() {
        if (arena != 0) {
            PlatformDependent.freeMemory(arena);
            arena = 0;
        }
    }
}
