package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingTable;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyValue;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * Every frame the active writes to one verified standby stream, numbered (one sequence for all
 * types) and signed with the stream's session key. See {@link FrameCodec} for the layout.
 *
 * <p>Not thread-safe: used on the replication event loop only, since the sequence must rise in the
 * order frames reach the socket.
 */
final class StreamFrames {
    /** The ActiveSide's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSide.class);
    /** A sticky entry on the wire and in snapshot batches: key then value. */
    static final int ENTRY = StickyKey.SIZE + StickyValue.SIZE;
    private static final int CHANGES_BUFFER = 64 * 1024;

    private final Channel ch;
    private final FrameCodec codec;
    private final ReplicationMetrics metrics;
    private long sequence;
    /** The batch {@link #writer} appends to, set only during {@link #writeChanges}. */
    private ByteBuf out;
    private final ChangeRing.Visitor writer = this::writeChange;
    private final BindingRing.Visitor bindingWriter = this::writeBindingChange;
    /** The bindings' clock during {@link #writeBindingChanges}. */
    private long bindingNowNs;

    /** @param codec keyed with the session key of the stream's HELLO */
    StreamFrames(Channel ch, FrameCodec codec, ReplicationMetrics metrics) {
        this.ch = ch;
        this.codec = codec;
        this.metrics = metrics;
    }

    private void writeChange(byte type, byte[] data, int k, int v, long micros) {
        boolean put = type == ChangeRing.PUT;
        int start = FrameCodec.begin(out, put ? FrameType.PUT : FrameType.REMOVE, ++sequence, micros,
                put ? ENTRY : StickyKey.SIZE);
        out.writeBytes(data, k, StickyKey.SIZE);
        if (put) {
            out.writeBytes(data, v, StickyValue.SIZE);
        }
        codec.end(out, start);
        metrics.sticky(data[k]).sent.increment();
    }

    private void writeBindingChange(byte op, BindingTable<?> table, Binding b, long micros) {
        boolean open = op == BindingRing.OPEN;
        int start = FrameCodec.begin(out, open ? FrameType.BINDING_OPEN : FrameType.BINDING_CLOSE, ++sequence,
                micros, 0);
        try {
            if (open) {
                BindingEntries.writeOpen(out, table.kind(), b, bindingNowNs);
            } else {
                BindingEntries.writeClose(out, table.kind(), b);
            }
        } catch (RuntimeException e) {
            // a module codec broke its contract: leave this binding out rather than the stream
            out.writerIndex(start);
            sequence--;
            LOG.warn("replication: cannot encode a {} binding: {}", table.kind(), e.toString());
            return;
        }
        out.setInt(start, out.writerIndex() - start - FrameCodec.LENGTH_FIELD + FrameCodec.MAC);
        codec.end(out, start);
        metrics.table(table.kind().label()).sent.increment();
    }

    /** Writes up to {@code max} queued binding changes as one buffer, one frame each; returns how many. */
    int writeBindingChanges(BindingRing ring, int max, long nowNs) {
        bindingNowNs = nowNs;
        return drainInto(() -> ring.drain(bindingWriter, max), false);
    }

    /** @param entries whole open entries; the future completes when the socket took them (back-pressure) */
    ChannelFuture writeBindingSnapshot(byte[] entries) {
        ByteBuf b = ch.alloc().heapBuffer(entries.length + 64);
        int start = FrameCodec.begin(b, FrameType.BINDING_SNAPSHOT, ++sequence, EpochClock.nowMicros(),
                entries.length);
        b.writeBytes(entries);
        codec.end(b, start);
        metrics.framesSent.increment();
        return ch.writeAndFlush(b);
    }

    Channel channel() {
        return ch;
    }

    /**
     * Writes up to {@code max} queued changes as one buffer, one frame each.
     *
     * @param cutMidFrameForTest test hook: cut the buffer in its last frame and close the stream
     * @return how many changes were taken from the ring
     */
    int writeChanges(ChangeRing ring, int max, boolean cutMidFrameForTest) {
        return drainInto(() -> ring.drain(writer, max), cutMidFrameForTest);
    }

    /** Drains a ring into one buffer (its visitor appends to {@link #out}) and sends it; returns how many. */
    private int drainInto(java.util.function.IntSupplier drain, boolean cutMidFrameForTest) {
        out = ch.alloc().heapBuffer(CHANGES_BUFFER);
        int n = drain.getAsInt();
        ByteBuf b = out;
        out = null;
        if (n == 0) {
            b.release();
            return 0;
        }
        if (cutMidFrameForTest) {
            b.writerIndex(b.writerIndex() - 20);
            ch.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
            return n;
        }
        send(b, n);
        return n;
    }

    void writeConfig(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > FrameCodec.MAX_FRAME - FrameCodec.HEADER - FrameCodec.MAC) {
            LOG.error("replication: configuration of {} bytes is too large to push", bytes.length);
            return;
        }
        ByteBuf b = ch.alloc().heapBuffer(bytes.length + 64);
        int start = FrameCodec.begin(b, FrameType.CONFIG, ++sequence, EpochClock.nowMicros(), bytes.length);
        b.writeBytes(bytes);
        codec.end(b, start);
        send(b, 1);
    }

    void writeState(String key, byte[] value) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ByteBuf b = ch.alloc().heapBuffer(k.length + value.length + 64);
        int start = FrameCodec.begin(b, FrameType.STATE, ++sequence, EpochClock.nowMicros(),
                2 + k.length + value.length);
        b.writeShort(k.length).writeBytes(k).writeBytes(value);
        codec.end(b, start);
        send(b, 1);
    }

    void writeHeartbeat() {
        ByteBuf b = ch.alloc().heapBuffer(FrameCodec.LENGTH_FIELD + FrameCodec.HEADER + FrameCodec.MAC);
        codec.end(b, FrameCodec.begin(b, FrameType.HEARTBEAT, ++sequence, EpochClock.nowMicros(), 0));
        send(b, 1);
    }

    void writeSnapshotBegin(long id) {
        ByteBuf b = ch.alloc().heapBuffer(64);
        int start = FrameCodec.begin(b, FrameType.SNAPSHOT_BEGIN, ++sequence, EpochClock.nowMicros(), 8);
        b.writeLong(id);
        codec.end(b, start);
        send(b, 1);
    }

    /** @param entries whole {@link #ENTRY}s; the future completes when the socket took them (back-pressure) */
    ChannelFuture writeSnapshotEntries(byte[] entries) {
        ByteBuf b = ch.alloc().heapBuffer(entries.length + 64);
        int start = FrameCodec.begin(b, FrameType.SNAPSHOT_ENTRIES, ++sequence, EpochClock.nowMicros(),
                entries.length);
        b.writeBytes(entries);
        codec.end(b, start);
        metrics.framesSent.increment();
        return ch.writeAndFlush(b);
    }

    void writeSnapshotEnd(long id, long entries) {
        ByteBuf b = ch.alloc().heapBuffer(64);
        int start = FrameCodec.begin(b, FrameType.SNAPSHOT_END, ++sequence, EpochClock.nowMicros(), 16);
        b.writeLong(id).writeLong(entries);
        codec.end(b, start);
        send(b, 1);
    }

    private void send(ByteBuf b, int frames) {
        ch.writeAndFlush(b, ch.voidPromise());
        metrics.framesSent.increment(frames);
    }
}
