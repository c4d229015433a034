package io.mclb.ha.replication;

import io.mclb.ha.replication.ReplicationMetrics.Refusal;
import io.mclb.sticky.Hashing;
import io.mclb.sticky.StickyChangeListener.RemoveReason;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The standby's end: connects from {@code LISTEN-IP} to the active's {@code REMOTE-IP:PORT},
 * sends a HELLO (which always asks for a full snapshot), then verifies and applies every frame.
 * After any failure (refused frame, broken stream, silence for three heartbeat intervals) it
 * closes, waits the reconnect delay and starts again with a new HELLO, hence a new snapshot.
 * Only complete frames whose length, HMAC, type, sequence and payload check out are applied, so
 * a stream cut mid-frame leaves the table as the last whole frame left it. Losing the active never
 * removes anything here.
 *
 * <p><b>Snapshot merge.</b> Between SNAPSHOT_BEGIN and SNAPSHOT_END, puts and removes keep
 * arriving. Rule: an incremental change of a key beats any snapshot entry for that key (the key is
 * recorded as "touched" and later snapshot entries for it are skipped); entries that neither the
 * snapshot named nor a change touched are removed at SNAPSHOT_END (mark and sweep; the marks are
 * 64-bit key hashes in a {@link LongHashSet}, the generation is the snapshot id). Why this is the
 * last writer's value: the active makes a change only after it is stored in its table and queues
 * it after that, and it writes every frame on one thread in queue order. A snapshot entry holds the
 * value at the moment the walk read it. If a change C of key K reaches the standby after BEGIN,
 * either C happened after the walk read K (C is newer: skipping the snapshot entry is right), or
 * before it (then the snapshot holds C's value or a newer one, whose own change frame also
 * follows and is applied): in both cases the last applied change frame equals the active's final
 * value. If a full ring dropped that newer frame, the active has already asked for another
 * snapshot, and it discards its queue when that snapshot begins, so no frame older than the walk
 * can mark a key again: the last snapshot that runs without a drop leaves the tables equal.
 * Changes delivered before BEGIN happened before the walk started, so the snapshot is at
 * least as new. A change queued so late that it follows SNAPSHOT_END is applied after the sweep
 * and again wins. If the stream breaks mid-snapshot no sweep runs: the table keeps a mix of old
 * and new entries, all complete, until the next snapshot finishes.
 *
 * <p>Threads: everything runs on the replication event loop, including the table writes (a
 * Chronicle put is a few microseconds). Writes are made with {@link StickyReplicator#applying}
 * set, so this node's own replicator does not send them back.
 */
final class StandbySide {
    private static final Logger LOG = LoggerFactory.getLogger(StandbySide.class);
    private static final int ENTRY = StickyKey.SIZE + StickyValue.SIZE;
    private static final long HASH_SEED = 0x5bd1e9955bd1e995L;

    private final ReplicationConfig config;
    private final StickyTable table;
    private final ReplicatedState state;
    private final ConfigReceiver configReceiver;
    private final ReplicationMetrics metrics;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final SslContext ssl;
    private final SecureRandom random = new SecureRandom();
    /** Null: this node applies no binding frames (its HELLO does not ask for them). */
    private final ReplicatedBindings bindings;
    private volatile boolean stopped;
    private volatile Channel channel;
    private final Supplier<PasswordRollOver> rollOver;
    /** Connection attempts so far: during a roll-over, odd ones use the previous password. */
    private int attempts;

    StandbySide(ReplicationConfig config, StickyTable table, ReplicatedState state, ConfigReceiver configReceiver,
                ReplicationMetrics metrics, EventLoopGroup group, SslContext ssl,
                Supplier<PasswordRollOver> rollOver, ReplicatedBindings bindings) {
        this.bindings = bindings;
        this.rollOver = rollOver;
        this.config = config;
        this.table = table;
        this.state = state;
        this.configReceiver = configReceiver;
        this.metrics = metrics;
        this.group = group;
        this.loop = group.next();
        this.ssl = ssl;
    }

    void start() {
        LOG.info("replication: standby, connecting to {}:{}", config.remoteAddress().getHostAddress(), config.port());
        connect();
    }

    void stop() {
        stopped = true;
        Channel c = channel;
        if (c != null) {
            c.close().syncUninterruptibly();
        }
    }

    boolean connected() {
        Channel c = channel;
        return c != null && c.isActive() && metrics.connected.get() == 1;
    }

    private void connect() {
        if (stopped) {
            return;
        }
        PasswordRollOver window = rollOver.get();
        PasswordRollOver previous = window != null && attempts++ % 2 == 1 ? window : null;
        Bootstrap b = new Bootstrap().group(group).channel(TcpChannels.client())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(100, config.interval().toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (ssl != null) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc(), config.remoteAddress().getHostAddress(),
                                    config.port()));
                        }
                        long idleMs = config.interval().toMillis() * 3;
                        ch.pipeline().addLast(new IdleStateHandler(idleMs, 0, 0, TimeUnit.MILLISECONDS),
                                new LengthFieldBasedFrameDecoder(FrameCodec.MAX_FRAME, 0, 4, 0, 4), new Stream(previous));
                    }
                });
        ChannelFuture f = b.connect(new InetSocketAddress(config.remoteAddress(), config.port()),
                new InetSocketAddress(config.listenAddress(), 0));
        channel = f.channel();
        f.addListener(r -> {
            if (!r.isSuccess()) {
                LOG.debug("replication: connect to {}:{} failed: {}", config.remoteAddress().getHostAddress(),
                        config.port(), r.cause().toString());
                reconnectLater();
            }
        });
    }

    private void reconnectLater() {
        if (!stopped) {
            loop.schedule(this::connect, config.reconnectDelay().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static long hash(byte[] key, int off) {
        return Hashing.murmur64(key, off, StickyKey.SIZE, HASH_SEED);
    }

    /** One connection to the active: verification, then the apply loop. Single-threaded (the loop). */
    private final class Stream extends ChannelInboundHandlerAdapter {
        private final FrameCodec codec;
        private final StickyKey key = new StickyKey();
        private final StickyValue value = new StickyValue();
        private final LongHashSet marked = new LongHashSet();
        private final LongHashSet touched = new LongHashSet();
        private Channel ch;
        private long expected = 1;
        private long snapshotId = -1;
        private long snapshotEntries;
        private boolean refused;

        /** Keyed with the roll-over's previous password, or (null) with the configured one. */
        private final PasswordRollOver previous;
        /** Null when this node takes no bindings. */
        private final BindingApplier applier = bindings == null ? null : new BindingApplier(bindings, metrics);

        Stream(PasswordRollOver previous) {
            this.previous = previous;
            codec = new FrameCodec(previous == null ? config.password() : previous.password());
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ch = ctx.channel();
            InetSocketAddress peer = (InetSocketAddress) ch.remoteAddress();
            if (!peer.getAddress().equals(config.remoteAddress())) {
                refuse(Refusal.UNKNOWN_PEER, "connected to " + peer);
                return;
            }
            if (previous != null) {
                // the roll-over window is the limit for a stream keyed with the old password
                ch.eventLoop().schedule(() -> {
                    ch.close();
                }, previous.remainingNanos(System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            byte[] nonce = new byte[FrameCodec.NONCE];
            random.nextBytes(nonce);
            ByteBuf b = ch.alloc().heapBuffer(64);
            int flags = applier == null ? 0 : FrameType.HELLO_BINDINGS;
            int start = FrameCodec.begin(b, FrameType.HELLO, flags, 0, EpochClock.nowMicros(), nonce.length);
            b.writeBytes(nonce);
            codec.end(b, start);
            codec.useSessionKey(nonce);
            ch.writeAndFlush(b);
            metrics.framesSent.increment();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                if (!refused) {
                    verifyAndApply(frame);
                }
            } finally {
                frame.release();
            }
        }

        private void verifyAndApply(ByteBuf f) {
            int at = f.readerIndex();
            int payload = f.readableBytes() - FrameCodec.HEADER - FrameCodec.MAC;
            if (payload < 0) {
                refuse(Refusal.MALFORMED, "frame of " + f.readableBytes() + " bytes");
                return;
            }
            if (!codec.verify(f)) {
                refuse(Refusal.BAD_HMAC, "frame with a bad HMAC (wrong password or corrupted)");
                return;
            }
            FrameType type = FrameType.of(f.getByte(at));
            long seq = f.getLong(at + 2);
            long micros = f.getLong(at + 10);
            if (type == null || type == FrameType.HELLO || f.getByte(at + 1) != 0) {
                refuse(Refusal.MALFORMED, "frame type " + f.getByte(at));
                return;
            }
            if (seq != expected) {
                refuse(Refusal.SEQUENCE_GAP, "sequence " + seq + ", expected " + expected);
                return;
            }
            int p = at + FrameCodec.HEADER;
            if (!wellFormed(type, f, p, payload)) {
                refuse(Refusal.MALFORMED, type + " with a " + payload + "-byte payload");
                return;
            }
            expected++;
            metrics.framesReceived.increment();
            metrics.connected.set(1);
            StickyReplicator.APPLYING.set(Boolean.TRUE);
            try {
                apply(type, f, p, payload, micros);
            } finally {
                StickyReplicator.APPLYING.set(Boolean.FALSE);
            }
        }

        private boolean wellFormed(FrameType type, ByteBuf f, int p, int len) {
            return switch (type) {
                case PUT -> len == ENTRY;
                case REMOVE -> len == StickyKey.SIZE;
                case SNAPSHOT_BEGIN -> len == 8 && snapshotId < 0;
                case SNAPSHOT_ENTRIES -> len > 0 && len % ENTRY == 0 && snapshotId >= 0;
                case SNAPSHOT_END -> len == 16 && snapshotId == f.getLong(p)
                        && snapshotEntries == f.getLong(p + 8);
                case STATE -> len >= 2 && f.getUnsignedShort(p) <= len - 2;
                case CONFIG -> true;
                case HEARTBEAT -> len == 0;
                case BINDING_OPEN -> applier != null && BindingEntries.openLength(f, p, p + len) == len;
                case BINDING_CLOSE -> applier != null && BindingEntries.closeLength(f, p, p + len) == len;
                case BINDING_SNAPSHOT -> applier != null && snapshotId >= 0 && BindingEntries.openEntries(f, p, len);
                case HELLO -> false;
            };
        }

        private void apply(FrameType type, ByteBuf f, int p, int len, long micros) {
            switch (type) {
                case PUT -> {
                    f.getBytes(p, key.bytes());
                    f.getBytes(p + StickyKey.SIZE, value.bytes());
                    touch();
                    table.put(key, value);
                    ReplicationMetrics.TableMeters t = metrics.sticky(key.bytes()[0]);
                    t.applied.increment();
                    t.lagMicros(EpochClock.nowMicros() - micros);
                }
                case REMOVE -> {
                    f.getBytes(p, key.bytes());
                    touch();
                    table.remove(key, RemoveReason.REPLICATED);
                    ReplicationMetrics.TableMeters t = metrics.sticky(key.bytes()[0]);
                    t.applied.increment();
                    t.lagMicros(EpochClock.nowMicros() - micros);
                }
                case SNAPSHOT_BEGIN -> {
                    snapshotId = f.getLong(p);
                    snapshotEntries = 0;
                    marked.clear();
                    touched.clear();
                    metrics.resyncs.increment();
                    if (applier != null) {
                        applier.snapshotBegin();
                    }
                }
                case SNAPSHOT_ENTRIES -> {
                    for (int off = p; off < p + len; off += ENTRY) {
                        f.getBytes(off, key.bytes());
                        long h = hash(key.bytes(), 0);
                        marked.add(h);
                        snapshotEntries++;
                        if (!touched.contains(h)) {
                            f.getBytes(off + StickyKey.SIZE, value.bytes());
                            table.put(key, value);
                            metrics.sticky(key.bytes()[0]).applied.increment();
                        }
                    }
                }
                case SNAPSHOT_END -> {
                    int swept = table.removeIf((k, v) -> {
                        long h = hash(k.bytes(), 0);
                        return !marked.contains(h) && !touched.contains(h);
                    }, RemoveReason.REPLICATED);
                    int bindingsSwept = applier == null ? 0 : applier.snapshotEnd();
                    LOG.info("replication: snapshot {} applied: {} entries, {} changed meanwhile, {} stale removed, "
                            + "{} stale bindings ended", snapshotId, snapshotEntries, touched.size(), swept, bindingsSwept);
                    snapshotId = -1;
                    marked.clear();
                    touched.clear();
                }
                case STATE -> {
                    int kl = f.getUnsignedShort(p);
                    String k = f.toString(p + 2, kl, StandardCharsets.UTF_8);
                    byte[] v = new byte[len - 2 - kl];
                    f.getBytes(p + 2 + kl, v);
                    state.applyRemote(k, v);
                }
                case CONFIG -> {
                    if (configReceiver != null) {
                        configReceiver.onConfig(f.toString(p, len, StandardCharsets.UTF_8));
                    }
                }
                case BINDING_OPEN, BINDING_CLOSE -> applier.change(type == FrameType.BINDING_OPEN, f, p, len, micros);
                case BINDING_SNAPSHOT -> applier.snapshotEntries(f, p, len);
                default -> {
                    // HEARTBEAT: its arrival already reset the idle timer
                }
            }
        }

        private void touch() {
            if (snapshotId >= 0) {
                touched.add(hash(key.bytes(), 0));
            }
        }

        private void refuse(Refusal why, String what) {
            refused = true;
            metrics.refused(why);
            LOG.warn("replication: refused {} from {}: {}; reconnecting for a resync", why.label(), ch.remoteAddress(),
                    what);
            ch.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            metrics.connected.set(0);
            if (snapshotId >= 0) {
                LOG.warn("replication: stream broke during snapshot {}; stale entries stay until the next one",
                        snapshotId);
            }
            if (applier != null) {
                applier.abandon();
            }
            reconnectLater();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent hs && !hs.isSuccess()) {
                refuse(Refusal.TLS, "TLS handshake failed: " + hs.cause());
            } else if (evt instanceof IdleStateEvent) {
                LOG.warn("replication: nothing from {} for {} ms; reconnecting", ch.remoteAddress(),
                        config.interval().toMillis() * 3);
                ch.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException) {
                refuse(Refusal.MALFORMED, cause.getMessage());
            } else {
                LOG.debug("replication: stream from {} failed", ch.remoteAddress(), cause);
                ch.close();
            }
        }
    }
}
