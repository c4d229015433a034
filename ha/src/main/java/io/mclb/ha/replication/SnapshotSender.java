package io.mclb.ha.replication;

import io.mclb.binding.BindingTable;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Full snapshots of the sticky table for one standby stream: SNAPSHOT_BEGIN, the entries in
 * batches, then (for a standby that applies them) every replicated binding table in
 * BINDING_SNAPSHOT batches, SNAPSHOT_END with the sticky entry count. One runs at a time per stream; a resync asked for while one
 * runs starts when it ends (its walk may already have passed the keys whose changes were lost).
 *
 * <p>Threads: {@link #start} and {@link #request} run on the replication loop; the walk runs on a
 * thread of its own ({@code mclb-replication-snapshot}), so a large table never holds the loop,
 * and hands each batch to the loop (which writes every frame, keeping one sequence) and waits
 * until the socket took it before it reads on.
 */
final class SnapshotSender {
    /** The ActiveSide's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSide.class);
    private static final int ENTRY = StreamFrames.ENTRY;
    private static final int BATCH = 512;
    private static final int BINDING_BATCH_BYTES = 32 * 1024;

    private final StreamFrames frames;
    private final StickyTable table;
    private final EventLoop loop;
    private final ChangeRing ring;
    private final BindingRing bindingRing;
    /** Null: the standby does not take bindings, or none are replicated. */
    private final ReplicatedBindings bindings;
    private final ReplicationMetrics metrics;
    private final LongSupplier nextId;
    /** On the loop. */
    private boolean running;
    /** On the loop: a resync was asked for while a snapshot ran. */
    private boolean pending;
    /** Set when the stream closed: the walk stops and nothing more is written. */
    private volatile boolean abandoned;

    /** @param nextId snapshot ids, rising across the streams of one active side (called on the loop) */
    SnapshotSender(StreamFrames frames, StickyTable table, EventLoop loop, ChangeRing ring, BindingRing bindingRing,
                   ReplicatedBindings bindings, ReplicationMetrics metrics, LongSupplier nextId) {
        this.bindingRing = bindingRing;
        this.bindings = bindings;
        this.frames = frames;
        this.table = table;
        this.loop = loop;
        this.ring = ring;
        this.metrics = metrics;
        this.nextId = nextId;
    }

    /** On the loop: a resync (the change queue overflowed). */
    void request() {
        if (running) {
            pending = true;
        } else {
            start();
        }
    }

    /** On the loop: writes SNAPSHOT_BEGIN and starts the walk. */
    void start() {
        running = true;
        // Everything queued now was stored in the table before the walk starts, so the walk
        // covers it. Sent after BEGIN it would be harmful: if a later change of the same key
        // was dropped by a full ring, the old change would mark the key as changed on the
        // standby, which would then skip the snapshot's newer value and keep the old one.
        ring.clear();
        bindingRing.clear();
        long id = nextId.getAsLong();
        metrics.resyncs.increment();
        frames.writeSnapshotBegin(id);
        Thread walker = new Thread(() -> walk(id), "mclb-replication-snapshot");
        walker.setDaemon(true);
        walker.start();
    }

    /** Any thread: the stream closed. */
    void abandon() {
        abandoned = true;
    }

    /** On the walker thread: reads the table segment by segment, one batch in flight at a time. */
    private void walk(long id) {
        byte[] batch = new byte[BATCH * ENTRY];
        int[] n = {0};
        long[] total = {0};
        try {
            table.forEach((k, v) -> {
                System.arraycopy(k.bytes(), 0, batch, n[0] * ENTRY, StickyKey.SIZE);
                System.arraycopy(v.bytes(), 0, batch, n[0] * ENTRY + StickyKey.SIZE, StickyValue.SIZE);
                metrics.sticky(k.bytes()[0]).sent.increment();
                total[0]++;
                if (++n[0] == BATCH) {
                    sendEntries(batch, n[0]);
                    n[0] = 0;
                }
                return !abandoned;
            });
            if (n[0] > 0) {
                sendEntries(batch, n[0]);
            }
            if (bindings != null) {
                walkBindings();
            }
            loop.execute(() -> finish(id, total[0]));
        } catch (RejectedExecutionException e) {
            LOG.debug("replication: snapshot {} abandoned, replication stopping", id);
        } catch (RuntimeException e) {
            LOG.error("replication: snapshot {} failed; closing the stream so the standby resyncs", id, e);
            frames.channel().close();
        }
    }

    /** On the walker thread: every binding of every replicated kind, in batches of about {@link #BINDING_BATCH_BYTES}. */
    private void walkBindings() {
        ByteBuf batch = Unpooled.buffer(BINDING_BATCH_BYTES + BindingEntries.MAX_OPEN);
        for (BindingTable<?> t : bindings.bindings().tables()) {
            if (t.kind().codec() == null) {
                continue;
            }
            ReplicationMetrics.TableMeters meters = metrics.table(t.kind().label());
            t.forEach(b -> {
                if (abandoned) {
                    return;
                }
                int mark = batch.writerIndex();
                try {
                    BindingEntries.writeOpen(batch, t.kind(), b, bindings.clock().nanoTime());
                } catch (RuntimeException e) {
                    batch.writerIndex(mark); // a codec that broke its contract: this binding stays out
                    return;
                }
                meters.sent.increment();
                if (batch.readableBytes() >= BINDING_BATCH_BYTES) {
                    sendBindings(batch);
                }
            });
        }
        if (batch.isReadable()) {
            sendBindings(batch);
        }
    }

    private void sendBindings(ByteBuf batch) {
        byte[] copy = new byte[batch.readableBytes()];
        batch.readBytes(copy);
        batch.clear();
        handOver(() -> frames.writeBindingSnapshot(copy));
    }

    private void sendEntries(byte[] batch, int count) {
        byte[] copy = Arrays.copyOf(batch, count * ENTRY);
        handOver(() -> frames.writeSnapshotEntries(copy));
    }

    /** On the walker thread: has the loop write one batch and waits until the socket took it. */
    private void handOver(java.util.function.Supplier<io.netty.channel.ChannelFuture> write) {
        if (abandoned) {
            return;
        }
        CompletableFuture<Void> written = new CompletableFuture<>();
        loop.execute(() -> {
            if (abandoned) {
                written.complete(null);
                return;
            }
            write.get().addListener(f -> written.complete(null));
        });
        // back-pressure: the walk waits until the socket took the batch (or the stream died)
        while (!abandoned) {
            try {
                written.get(100, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // check abandoned and wait again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                return;
            }
        }
    }

    private void finish(long id, long entries) {
        if (abandoned) {
            return;
        }
        frames.writeSnapshotEnd(id, entries);
        LOG.info("replication: snapshot {} of {} entries sent to {}", id, entries, frames.channel().remoteAddress());
        running = false;
        if (pending) {
            pending = false;
            start();
        }
    }
}
