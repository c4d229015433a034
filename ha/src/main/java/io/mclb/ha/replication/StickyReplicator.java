package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingTable;
import io.mclb.net.Transports;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyTable;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stateful backup of one node: streams this node's sticky changes, state items and configuration
 * to the standby while active, or applies the active's while standby. The HA wiring creates one
 * per process, calls {@link #startActive} or {@link #startStandby} as the group state changes and
 * {@link #stop()} in between; the sticky table, its contents and the listener survive every role
 * change (losing the peer never loses local state).
 *
 * <p>Data path cost: the table listener copies each change (36 bytes) into a preallocated
 * lock-free ring and, at most once per drain, wakes the replication thread; it never blocks and
 * allocates nothing. With no standby attached it does nothing. A full ring drops the change,
 * counts {@code mclb_replication_overflows_total} and makes the active send a fresh snapshot.
 *
 * <p>Threads: one Netty event loop of its own (epoll when available), so replication never
 * delays the data-path loops. Methods are thread-safe.
 */
public final class StickyReplicator implements AutoCloseable {
    /**
     * True while the standby applies a replicated change on this thread: the listener then does
     * not queue it, so a node never echoes what it received. (A put has no reason in the table
     * API; the listener is called on the writing thread, so a thread-local flag identifies it.)
     */
    static final ThreadLocal<Boolean> APPLYING = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final StickyTable table;
    private final ReplicatedState state;
    private final ReplicationMetrics metrics;
    private final EventLoopGroup group;
    private final ChangeRing ring;
    private final BindingRing bindingRing;
    /** Null when only sticky entries and state items are replicated. */
    private final ReplicatedBindings bindings;
    private final StickyChangeListener listener;
    private volatile ActiveSide active;
    /** The previous password while its roll-over window runs, or null; read by each new connection. */
    private volatile PasswordRollOver rollOver;
    private StandbySide standby;

    /**
     * Registers the change listener on {@code table}; the queue size comes from the first
     * configuration's {@link ReplicationConfig#queueCapacity()} via {@code queueCapacity}.
     *
     * @param state    replicated state items (shared with the modules that publish them)
     * @param registry where the {@code mclb_replication_*} metrics go
     */
    public StickyReplicator(StickyTable table, ReplicatedState state, MeterRegistry registry, int queueCapacity) {
        this(table, state, registry, queueCapacity, null);
    }

    /**
     * Replicates the runtime's binding tables too ({@code bindings} not null): every kind with a
     * {@link io.mclb.binding.BindingCodec}, incrementally and in each snapshot, to a standby that
     * asks for them. Their queue has the same capacity as the sticky changes'.
     */
    public StickyReplicator(StickyTable table, ReplicatedState state, MeterRegistry registry, int queueCapacity,
                            ReplicatedBindings bindings) {
        this.table = table;
        this.state = state;
        this.ring = new ChangeRing(queueCapacity);
        this.bindingRing = new BindingRing(queueCapacity);
        this.bindings = bindings;
        this.metrics = new ReplicationMetrics(registry, () -> ring.size() + bindingRing.size());
        this.group = Transports.newGroup(1, "mclb-replication");
        this.listener = new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                ActiveSide a = active;
                if (a != null && !APPLYING.get()) {
                    a.offer(ChangeRing.PUT, key, value);
                }
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
                ActiveSide a = active;
                if (a != null && reason != RemoveReason.REPLICATED && !APPLYING.get()) {
                    a.offer(ChangeRing.REMOVE, key, null);
                }
            }
        };
        table.addListener(listener);
        if (bindings != null) {
            bindings.bindings().listener(new BindingTable.ChangeListener() {
                @Override
                public void opened(BindingTable<?> t, Binding b) {
                    offer(BindingRing.OPEN, t, b);
                }

                @Override
                public void closed(BindingTable<?> t, Binding b) {
                    offer(BindingRing.CLOSE, t, b);
                }

                private void offer(byte op, BindingTable<?> t, Binding b) {
                    ActiveSide a = active;
                    if (a != null && t.kind().codec() != null && !APPLYING.get()) {
                        a.offerBinding(op, t, b);
                    }
                }
            });
        }
    }

    public StickyReplicator(StickyTable table, ReplicatedState state, MeterRegistry registry) {
        this(table, state, registry, ReplicationConfig.DEFAULT_QUEUE_CAPACITY);
    }

    /**
     * A password change: for {@code validFor} from now, connections keyed with {@code previous}
     * are accepted too (active), and a standby alternates between the two when it connects, so the
     * peer may be changed later without losing replication. A stream keyed with the previous
     * password is closed when the window ends, and the peer must then use the new one. Call before
     * {@link #startActive} or {@link #startStandby} with the new password.
     */
    public void rollOver(String previous, Duration validFor) {
        rollOver = validFor.isZero() ? null : new PasswordRollOver(previous, System.nanoTime() + validFor.toNanos());
    }

    /** The previous password while it is still valid, else null. */
    PasswordRollOver currentRollOver() {
        PasswordRollOver r = rollOver;
        return r != null && r.remainingNanos(System.nanoTime()) > 0 ? r : null;
    }

    /**
     * Becomes the active end: listens on {@code LISTEN-IP:PORT} for the standby (stopping any
     * previous role first).
     *
     * @return the bound address (the real port when {@code config.port()} is 0)
     * @throws IOException if the port cannot be bound or the TLS files cannot be read
     */
    public synchronized InetSocketAddress startActive(ReplicationConfig config) throws IOException {
        stop();
        SslContext ssl = config.tls() == null ? null : tls(config, true);
        ActiveSide a = new ActiveSide(config, table, state, metrics, group, ring, bindingRing, bindings, ssl,
                this::currentRollOver);
        InetSocketAddress bound = a.start();
        active = a;
        return bound;
    }

    /**
     * Becomes the standby end: connects to {@code REMOTE-IP:PORT} (retrying every reconnect
     * delay until {@link #stop()}), applies the active's stream and hands pushed configurations
     * to {@code configReceiver} (may be null).
     *
     * @throws IOException if the TLS files cannot be read
     */
    public synchronized void startStandby(ReplicationConfig config, ConfigReceiver configReceiver) throws IOException {
        stop();
        SslContext ssl = config.tls() == null ? null : tls(config, false);
        standby = new StandbySide(config, table, state, configReceiver, metrics, group, ssl, this::currentRollOver,
                bindings);
        standby.start();
    }

    /** Leaves either role: closes the listener or the connection. Tables and state are kept. Idempotent. */
    public synchronized void stop() {
        ActiveSide a = active;
        active = null;
        if (a != null) {
            a.stop();
        }
        if (standby != null) {
            standby.stop();
            standby = null;
        }
        metrics.connected.set(0);
    }

    /**
     * Active only: sends the running configuration to the standby now and to every standby that
     * joins later (LocalDirector {@code write standby}; the wiring also calls it after each reload).
     * Ignored when not active.
     */
    public void pushConfig(String runningConfig) {
        ActiveSide a = active;
        if (a != null) {
            a.pushConfig(runningConfig);
        }
    }

    /** True while a verified stream to (active) or from (standby) the peer is up. */
    public synchronized boolean connected() {
        ActiveSide a = active;
        if (a != null) {
            return a.connected();
        }
        return standby != null && standby.connected();
    }

    /** What {@code show replicate} prints about the stream, read from the replication's own meters. */
    public record Status(boolean connected, long backlog, long framesSent, long framesReceived, long resyncs,
                         long overflows, long refused, double lagMeanMs, double lagMaxMs) {
    }

    /**
     * One replicated table in {@code show replicate}: a sticky kind or a binding kind, its entries
     * sent (active) and applied (standby), those the standby could not resolve, and its lag.
     */
    public record TableStatus(String table, long sent, long applied, long unresolved, long lagCount,
                              double lagMeanMs, double lagP99Ms, double lagMaxMs) {
    }

    /** Every table that has meters (each declared kind, from the start), by label. */
    public List<TableStatus> tables() {
        List<TableStatus> out = new ArrayList<>();
        for (ReplicationMetrics.TableMeters t : metrics.tables().values()) {
            out.add(new TableStatus(t.table, (long) t.sent.count(), (long) t.applied.count(), t.unresolved(),
                    t.lag.count(), t.lag.mean(TimeUnit.MILLISECONDS), p99Ms(t.lag), t.lag.max(TimeUnit.MILLISECONDS)));
        }
        return out;
    }

    private static double p99Ms(io.micrometer.core.instrument.Timer lag) {
        for (var v : lag.takeSnapshot().percentileValues()) {
            if (v.percentile() == 0.99) {
                return v.value(TimeUnit.MILLISECONDS);
            }
        }
        // no client-side percentile: the histogram bucket that holds the 99th percentile
        var buckets = lag.takeSnapshot().histogramCounts();
        long total = lag.count();
        for (var b : buckets) {
            if (total > 0 && b.count() >= Math.ceil(total * 0.99)) {
                return b.bucket(TimeUnit.MILLISECONDS);
            }
        }
        return lag.max(TimeUnit.MILLISECONDS);
    }

    public Status status() {
        long refused = 0;
        for (ReplicationMetrics.Refusal r : ReplicationMetrics.Refusal.values()) {
            refused += (long) metrics.refusedCount(r);
        }
        return new Status(connected(), ring.size(), (long) metrics.framesSent.count(),
                (long) metrics.framesReceived.count(), (long) metrics.resyncs.count(), (long) metrics.overflows.count(),
                refused, metrics.lagMeanMaxMs()[0], metrics.lagMeanMaxMs()[1]);
    }

    /** Stops, unregisters the listener and shuts the replication thread down. Leaves the table open. */
    @Override
    public void close() {
        stop();
        table.removeListener(listener);
        if (bindings != null) {
            bindings.bindings().listener(null);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Test hook: the next batch the active writes is cut in the middle of a frame, then the connection closed. */
    void cutMidFrameForTest() {
        ActiveSide a = active;
        if (a != null) {
            a.cutMidFrameForTest = true;
        }
    }

    /** Test hook: runs {@code task} on the replication thread (a blocking task holds every drain back). */
    void executeOnReplicationThreadForTest(Runnable task) {
        group.next().execute(task);
    }

    private static SslContext tls(ReplicationConfig config, boolean server) throws IOException {
        try {
            return server ? ReplicationTls.server(config.tls()) : ReplicationTls.client(config.tls());
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IOException("replication TLS: cannot load " + config.tls() + ": " + e.getMessage(), e);
        }
    }
}
