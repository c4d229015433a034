package io.mclb.ha.replication;

import io.mclb.ha.replication.ReplicationMetrics.Refusal;
import io.mclb.sticky.StickyTable;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The active node's end: listens on {@code LISTEN-IP:PORT}, accepts only {@code REMOTE-IP}, and
 * after a verified HELLO ({@link StandbyStream}) streams every sticky change, the state items, the
 * configuration and a full snapshot ({@link SnapshotSender}) to that standby. One standby at a
 * time: a newer verified connection replaces the older one.
 *
 * <p>Threads: {@link #offer} runs on any data-path thread and only touches the lock-free
 * {@link ChangeRing} and two atomics; everything else runs on {@link #loop} (the replication
 * group has one thread, which is therefore the ring's single consumer and the loop of every
 * connection), except the snapshot walk, which runs on its own thread and hands batches to the
 * loop one at a time.
 *
 * <p>Ordering: a stream is made current (so changes start to queue) before its snapshot begins,
 * and every frame is written on the loop, so the standby sees SNAPSHOT_BEGIN before any entry the
 * walk read, and every change made after the walk read a key arrives after SNAPSHOT_BEGIN. See
 * {@link StandbySide} for why that makes "an incremental change beats a snapshot entry" correct.
 */
final class ActiveSide {
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSide.class);
    private static final int DRAIN_BATCH = 1024;

    private final ReplicationConfig config;
    private final StickyTable table;
    private final ReplicatedState state;
    private final ReplicationMetrics metrics;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final ChangeRing ring;
    private final BindingRing bindingRing;
    /** Null when the runtime's bindings are not replicated (tests of sticky replication alone). */
    private final ReplicatedBindings bindings;
    private final SslContext ssl;
    private final Supplier<PasswordRollOver> rollOver;
    /** True from a producer's wake-up until the drain task runs (or while the socket is full). */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    /** Set by a producer that found the ring full; the loop answers with a new snapshot. */
    private final AtomicBoolean resyncNeeded = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    /** The verified standby stream, or null: written on the loop, read by producers. */
    private volatile StandbyStream session;
    private volatile String configText;
    private Channel server;
    /** On the loop; not reset per stream, so an id names one snapshot of this active side in both nodes' logs. */
    private long snapshotIds;
    /** Test hook: the next batch of changes is cut in the middle of its last frame and the connection closed. */
    volatile boolean cutMidFrameForTest;

    ActiveSide(ReplicationConfig config, StickyTable table, ReplicatedState state, ReplicationMetrics metrics,
               EventLoopGroup group, ChangeRing ring, BindingRing bindingRing, ReplicatedBindings bindings,
               SslContext ssl, Supplier<PasswordRollOver> rollOver) {
        this.bindingRing = bindingRing;
        this.bindings = bindings;
        this.rollOver = rollOver;
        this.config = config;
        this.table = table;
        this.state = state;
        this.metrics = metrics;
        this.group = group;
        this.loop = group.next();
        this.ring = ring;
        this.ssl = ssl;
    }

    InetSocketAddress start() throws IOException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(TcpChannels.server())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (!ch.remoteAddress().getAddress().equals(config.remoteAddress())) {
                            metrics.refused(Refusal.UNKNOWN_PEER);
                            LOG.warn("replication: refused connection from {}, only {} is allowed",
                                    ch.remoteAddress(), config.remoteAddress().getHostAddress());
                            ch.close();
                            return;
                        }
                        if (ssl != null) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(FrameCodec.MAX_FRAME, 0, 4, 0, 4),
                                new StandbyStream(ActiveSide.this, config.password(), metrics, rollOver));
                    }
                });
        try {
            server = b.bind(new InetSocketAddress(config.listenAddress(), config.port())).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding replication listener", e);
        } catch (RuntimeException e) {
            throw new IOException("cannot listen for replication on " + config.listenAddress().getHostAddress() + ":"
                    + config.port() + ": " + e.getMessage(), e);
        }
        state.sink(this::sendState);
        LOG.info("replication: active, listening on {} for standby {}", server.localAddress(),
                config.remoteAddress().getHostAddress());
        return (InetSocketAddress) server.localAddress();
    }

    void stop() {
        state.sink(null);
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        StandbyStream s = session;
        if (s != null) {
            s.channel().close().syncUninterruptibly();
        }
    }

    /** Any thread, never blocks: queues a change if a standby is attached. */
    void offer(byte type, byte[] key, byte[] value) {
        if (session == null) {
            return;
        }
        if (!ring.offer(type, key, value, EpochClock.nowMicros())) {
            metrics.overflows.increment();
            resyncNeeded.set(true);
        }
        if (wakeupPending.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    /** Any thread, never blocks: queues a binding change if the attached standby applies them. */
    void offerBinding(byte op, io.mclb.binding.BindingTable<?> table, io.mclb.binding.Binding b) {
        StandbyStream s = session;
        if (s == null || !s.wantsBindings()) {
            return;
        }
        if (!bindingRing.offer(op, table, b, EpochClock.nowMicros())) {
            metrics.overflows.increment();
            resyncNeeded.set(true);
        }
        if (wakeupPending.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    boolean connected() {
        return session != null;
    }

    void pushConfig(String text) {
        configText = text;
        loop.execute(() -> {
            StandbyStream s = session;
            if (s != null) {
                s.frames().writeConfig(text);
            }
        });
    }

    private void sendState(String key, byte[] value) {
        loop.execute(() -> {
            StandbyStream s = session;
            if (s != null) {
                s.frames().writeState(key, value);
            }
        });
    }

    /** On the loop: writes what is queued, one batch per turn so other tasks interleave. */
    private void drain() {
        StandbyStream s = session;
        if (s == null) {
            wakeupPending.set(false);
            ring.clear();
            bindingRing.clear();
            return;
        }
        if (!s.channel().isWritable()) {
            return; // wakeupPending stays set: channelWritabilityChanged resumes
        }
        // Clear the flag before reading resyncNeeded: a producer that finds the ring full after
        // this point sees the flag clear and schedules another drain. Read in the other order, a
        // resync requested between the two reads would wait for the next change, and when the
        // writers have gone quiet there is none (the standby would stay stale indefinitely).
        wakeupPending.set(false);
        if (resyncNeeded.getAndSet(false)) {
            s.snapshots().request();
        }
        boolean cut = cutMidFrameForTest;
        int n = s.frames().writeChanges(ring, DRAIN_BATCH, cut);
        if (cut && n > 0) {
            cutMidFrameForTest = false;
        }
        int nb = bindings == null ? bindingRing.clear()
                : s.frames().writeBindingChanges(bindingRing, DRAIN_BATCH, bindings.clock().nanoTime());
        if ((n == DRAIN_BATCH || nb == DRAIN_BATCH) && wakeupPending.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    /** On the loop, for a stream whose HELLO was just verified. */
    SnapshotSender snapshotSender(StreamFrames frames, boolean withBindings) {
        return new SnapshotSender(frames, table, loop, ring, bindingRing, withBindings ? bindings : null, metrics,
                () -> ++snapshotIds);
    }

    /** On the loop: a verified stream becomes the current one, replacing an older one, and is brought up to date. */
    void attach(StandbyStream s) {
        StandbyStream old = session;
        if (old != null) {
            old.channel().close();
        }
        ring.clear();
        resyncNeeded.set(false); // the snapshot below covers whatever the old stream lost
        session = s;
        metrics.connected.set(1);
        LOG.info("replication: standby {} attached", s.remoteAddress());
        String c = configText;
        if (c != null) {
            s.frames().writeConfig(c);
        }
        for (Map.Entry<String, byte[]> e : state.all().entrySet()) {
            s.frames().writeState(e.getKey(), e.getValue());
        }
        s.snapshots().start();
        s.startHeartbeat(config.interval());
    }

    /** On the loop: the stream closed. */
    void detached(StandbyStream s) {
        if (session == s) {
            session = null;
            metrics.connected.set(0);
            LOG.info("replication: standby {} detached", s.remoteAddress());
        }
    }

    /** On the loop: the socket drained below its low-water mark; resume the changes held back. */
    void writable(StandbyStream s) {
        if (session == s) {
            wakeupPending.set(true);
            loop.execute(drainTask);
        }
    }
}
