package io.mclb.ha.replication;

import io.mclb.ha.replication.ReplicationMetrics.Refusal;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The active node's end: listens on {@code LISTEN-IP:PORT}, accepts only {@code REMOTE-IP}, and
 * after a verified HELLO streams every sticky change, the state items, the configuration and a
 * full snapshot to that standby. One standby at a time: a newer verified connection replaces the
 * older one.
 *
 * <p>Threads: {@link #offer} runs on any data-path thread and only touches the lock-free
 * {@link ChangeRing} and two atomics; everything else runs on {@link #loop} (the replication
 * group has one thread, which is therefore the ring's single consumer), except the snapshot walk,
 * which runs on its own thread and hands batches to the loop one at a time.
 *
 * <p>Ordering: a session is made current (so changes start to queue) before its snapshot begins,
 * and every frame is written on the loop, so the standby sees SNAPSHOT_BEGIN before any entry the
 * walk read, and every change made after the walk read a key arrives after SNAPSHOT_BEGIN. See
 * {@link StandbySide} for why that makes "an incremental change beats a snapshot entry" correct.
 */
final class ActiveSide {
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSide.class);
    private static final int DRAIN_BATCH = 1024;
    private static final int SNAPSHOT_BATCH = 512;
    private static final int ENTRY = StickyKey.SIZE + StickyValue.SIZE;

    private final ReplicationConfig config;
    private final StickyTable table;
    private final ReplicatedState state;
    private final ReplicationMetrics metrics;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final ChangeRing ring;
    private final SslContext ssl;
    private final Supplier<PasswordRollOver> rollOver;
    /** True from a producer's wake-up until the drain task runs (or while the socket is full). */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    /** Set by a producer that found the ring full; the loop answers with a new snapshot. */
    private final AtomicBoolean resyncNeeded = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    /** The verified standby stream, or null: written on the loop, read by producers. */
    private volatile Session session;
    private volatile String configText;
    private Channel server;
    private long snapshotIds;
    /** Test hook: the next batch of changes is cut in the middle of its last frame and the connection closed. */
    volatile boolean cutMidFrameForTest;

    ActiveSide(ReplicationConfig config, StickyTable table, ReplicatedState state, ReplicationMetrics metrics,
               EventLoopGroup group, ChangeRing ring, SslContext ssl,
               Supplier<PasswordRollOver> rollOver) {
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
                                new Session());
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
        Session s = session;
        if (s != null) {
            s.ch.close().syncUninterruptibly();
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

    boolean connected() {
        return session != null;
    }

    void pushConfig(String text) {
        configText = text;
        loop.execute(() -> {
            Session s = session;
            if (s != null) {
                s.writeConfig(text);
                s.ch.flush();
            }
        });
    }

    private void sendState(String key, byte[] value) {
        loop.execute(() -> {
            Session s = session;
            if (s != null) {
                s.writeState(key, value);
                s.ch.flush();
            }
        });
    }

    /** On the loop: writes what is queued, one batch per turn so other tasks interleave. */
    private void drain() {
        Session s = session;
        if (s == null) {
            wakeupPending.set(false);
            ring.clear();
            return;
        }
        if (!s.ch.isWritable()) {
            return; // wakeupPending stays set: channelWritabilityChanged resumes
        }
        // Clear the flag before reading resyncNeeded: a producer that finds the ring full after
        // this point sees the flag clear and schedules another drain. Read in the other order, a
        // resync requested between the two reads would wait for the next change, and when the
        // writers have gone quiet there is none (the standby would stay stale indefinitely).
        wakeupPending.set(false);
        if (resyncNeeded.getAndSet(false)) {
            s.requestSnapshot();
        }
        if (s.writeChanges() == DRAIN_BATCH && wakeupPending.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    /** One accepted connection: waits for a verified HELLO, then is the stream to that standby. */
    private final class Session extends ChannelInboundHandlerAdapter {
        private FrameCodec codec = new FrameCodec(config.password());
        private Channel ch;
        private boolean verified;
        private long sequence;
        private boolean snapshotRunning;
        private boolean pendingResync;
        private volatile boolean closed;
        private ByteBuf out;
        private ScheduledFuture<?> heartbeat;
        private final ChangeRing.Visitor writer = (type, data, k, v, micros) -> {
            boolean put = type == ChangeRing.PUT;
            int start = FrameCodec.begin(out, put ? FrameType.PUT : FrameType.REMOVE, ++sequence, micros,
                    put ? ENTRY : StickyKey.SIZE);
            out.writeBytes(data, k, StickyKey.SIZE);
            if (put) {
                out.writeBytes(data, v, StickyValue.SIZE);
            }
            codec.end(out, start);
        };

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            ch = ctx.channel();
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                if (verified) {
                    refuse(Refusal.MALFORMED, "unexpected frame from the standby after HELLO");
                } else if (frame.readableBytes() != FrameCodec.HEADER + FrameCodec.NONCE + FrameCodec.MAC) {
                    refuse(Refusal.MALFORMED, "HELLO of " + frame.readableBytes() + " bytes");
                } else if (!codec.verify(frame) && !verifiedWithPreviousPassword(frame)) {
                    refuse(Refusal.BAD_HMAC, "HELLO with a bad HMAC (wrong password?)");
                } else if (frame.getByte(frame.readerIndex()) != FrameType.HELLO.code
                        || frame.getLong(frame.readerIndex() + 2) != 0) {
                    refuse(Refusal.MALFORMED, "first frame is not a HELLO with sequence 0");
                } else {
                    byte[] nonce = new byte[FrameCodec.NONCE];
                    frame.getBytes(frame.readerIndex() + FrameCodec.HEADER, nonce);
                    codec.useSessionKey(nonce);
                    verified = true;
                    metrics.framesReceived.increment();
                    attach();
                }
            } finally {
                frame.release();
            }
        }

        private void refuse(Refusal why, String what) {
            metrics.refused(why);
            LOG.warn("replication: refused {} from {}: {}", why.label(), ch.remoteAddress(), what);
            ch.close();
        }

        /**
         * During a password roll-over: true if the HELLO is keyed with the previous password. This
         * stream then stays keyed with it and is closed when the roll-over window ends.
         */
        private boolean verifiedWithPreviousPassword(ByteBuf hello) {
            PasswordRollOver r = rollOver.get();
            if (r == null) {
                return false;
            }
            FrameCodec previous = new FrameCodec(r.password());
            if (!previous.verify(hello)) {
                return false;
            }
            codec = previous;
            long left = r.remainingNanos(System.nanoTime());
            LOG.warn("replication: standby {} uses the previous password; accepted for {} s more (roll-over)",
                    ch.remoteAddress(), TimeUnit.NANOSECONDS.toSeconds(left));
            ch.eventLoop().schedule(() -> {
                if (ch.isActive()) {
                    LOG.warn("replication: password roll-over ended; closing the stream from {} keyed with the "
                            + "previous password", ch.remoteAddress());
                    ch.close();
                }
            }, left, TimeUnit.NANOSECONDS);
            return true;
        }

        private void attach() {
            Session old = session;
            if (old != null) {
                old.ch.close();
            }
            ring.clear();
            resyncNeeded.set(false); // the snapshot below covers whatever the old stream lost
            session = this;
            metrics.connected.set(1);
            LOG.info("replication: standby {} attached", ch.remoteAddress());
            String c = configText;
            if (c != null) {
                writeConfig(c);
            }
            for (Map.Entry<String, byte[]> e : state.all().entrySet()) {
                writeState(e.getKey(), e.getValue());
            }
            startSnapshot();
            long ms = config.interval().toMillis();
            heartbeat = loop.scheduleAtFixedRate(() -> {
                ByteBuf b = ch.alloc().heapBuffer(FrameCodec.LENGTH_FIELD + FrameCodec.HEADER + FrameCodec.MAC);
                codec.end(b, FrameCodec.begin(b, FrameType.HEARTBEAT, ++sequence, EpochClock.nowMicros(), 0));
                send(b, 1);
            }, ms, ms, TimeUnit.MILLISECONDS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closed = true;
            if (heartbeat != null) {
                heartbeat.cancel(false);
            }
            if (session == this) {
                session = null;
                metrics.connected.set(0);
                LOG.info("replication: standby {} detached", ch.remoteAddress());
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ch.isWritable() && session == this) {
                wakeupPending.set(true);
                loop.execute(drainTask);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent hs && !hs.isSuccess()) {
                metrics.refused(Refusal.TLS);
                LOG.warn("replication: TLS handshake with {} failed: {}", ch.remoteAddress(), hs.cause().toString());
                ch.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof io.netty.handler.codec.TooLongFrameException) {
                refuse(Refusal.MALFORMED, cause.getMessage());
            } else {
                LOG.debug("replication: connection from {} failed", ch.remoteAddress(), cause);
                ch.close();
            }
        }

        int writeChanges() {
            out = ch.alloc().heapBuffer(64 * 1024);
            int n = ring.drain(writer, DRAIN_BATCH);
            ByteBuf b = out;
            out = null;
            if (n == 0) {
                b.release();
                return 0;
            }
            if (cutMidFrameForTest) {
                cutMidFrameForTest = false;
                b.writerIndex(b.writerIndex() - 20);
                ch.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
                return n;
            }
            send(b, n);
            return n;
        }

        private void send(ByteBuf b, int frames) {
            ch.writeAndFlush(b, ch.voidPromise());
            metrics.framesSent.increment(frames);
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

        void requestSnapshot() {
            if (snapshotRunning) {
                pendingResync = true;
            } else {
                startSnapshot();
            }
        }

        private void startSnapshot() {
            snapshotRunning = true;
            // Everything queued now was stored in the table before the walk starts, so the walk
            // covers it. Sent after BEGIN it would be harmful: if a later change of the same key
            // was dropped by a full ring, the old change would mark the key as changed on the
            // standby, which would then skip the snapshot's newer value and keep the old one.
            ring.clear();
            long id = ++snapshotIds;
            metrics.resyncs.increment();
            ByteBuf b = ch.alloc().heapBuffer(64);
            int start = FrameCodec.begin(b, FrameType.SNAPSHOT_BEGIN, ++sequence, EpochClock.nowMicros(), 8);
            b.writeLong(id);
            codec.end(b, start);
            send(b, 1);
            Thread walker = new Thread(() -> walk(id), "mclb-replication-snapshot");
            walker.setDaemon(true);
            walker.start();
        }

        /** On the walker thread: reads the table segment by segment, one batch in flight at a time. */
        private void walk(long id) {
            byte[] batch = new byte[SNAPSHOT_BATCH * ENTRY];
            int[] n = {0};
            long[] total = {0};
            try {
                table.forEach((k, v) -> {
                    System.arraycopy(k.bytes(), 0, batch, n[0] * ENTRY, StickyKey.SIZE);
                    System.arraycopy(v.bytes(), 0, batch, n[0] * ENTRY + StickyKey.SIZE, StickyValue.SIZE);
                    total[0]++;
                    if (++n[0] == SNAPSHOT_BATCH) {
                        sendEntries(batch, n[0]);
                        n[0] = 0;
                    }
                    return !closed;
                });
                if (n[0] > 0) {
                    sendEntries(batch, n[0]);
                }
                loop.execute(() -> finishSnapshot(id, total[0]));
            } catch (RejectedExecutionException e) {
                LOG.debug("replication: snapshot {} abandoned, replication stopping", id);
            } catch (RuntimeException e) {
                LOG.error("replication: snapshot {} failed; closing the stream so the standby resyncs", id, e);
                ch.close();
            }
        }

        private void sendEntries(byte[] batch, int count) {
            if (closed) {
                return;
            }
            byte[] copy = Arrays.copyOf(batch, count * ENTRY);
            CompletableFuture<Void> written = new CompletableFuture<>();
            loop.execute(() -> {
                if (closed) {
                    written.complete(null);
                    return;
                }
                ByteBuf b = ch.alloc().heapBuffer(copy.length + 64);
                int start = FrameCodec.begin(b, FrameType.SNAPSHOT_ENTRIES, ++sequence, EpochClock.nowMicros(),
                        copy.length);
                b.writeBytes(copy);
                codec.end(b, start);
                metrics.framesSent.increment();
                ch.writeAndFlush(b).addListener(f -> written.complete(null));
            });
            // back-pressure: the walk waits until the socket took the batch (or the stream died)
            while (!closed) {
                try {
                    written.get(100, TimeUnit.MILLISECONDS);
                    return;
                } catch (TimeoutException e) {
                    // check closed and wait again
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException e) {
                    return;
                }
            }
        }

        private void finishSnapshot(long id, long entries) {
            if (closed) {
                return;
            }
            ByteBuf b = ch.alloc().heapBuffer(64);
            int start = FrameCodec.begin(b, FrameType.SNAPSHOT_END, ++sequence, EpochClock.nowMicros(), 16);
            b.writeLong(id).writeLong(entries);
            codec.end(b, start);
            send(b, 1);
            LOG.info("replication: snapshot {} of {} entries sent to {}", id, entries, ch.remoteAddress());
            snapshotRunning = false;
            if (pendingResync) {
                pendingResync = false;
                startSnapshot();
            }
        }
    }
}
