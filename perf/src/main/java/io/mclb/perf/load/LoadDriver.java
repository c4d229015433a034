package io.mclb.perf.load;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol-independent part of a request/response load generator: one event loop owning
 * {@code flows} connected client sockets ({@link ClientFlow}s), a 1 ms ticker that expires
 * timed-out requests and paces sends, the latency histogram and the start/stop/close lifecycle
 * with a final snapshot.
 *
 * <p>Two modes: paced ({@code ratePerSecond > 0}: that many requests per second in total, round
 * robin over the flows, at most {@code windowPerFlow} outstanding per flow) and closed loop
 * ({@code ratePerSecond == 0}: every flow keeps {@code windowPerFlow} requests outstanding and
 * sends the next one as soon as one is answered or lost). Sending stops by itself after
 * {@code maxDuration} (if set); outstanding requests then settle (answer or timeout).
 *
 * <p>Threading: every socket and all state live on the event loop thread; {@link #snapshot()}
 * runs the snapshot supplier there too, so counters and the histogram need no locks. The supplier
 * reads {@link #flows()}, {@link #sending()} and the latency accessors.
 *
 * @param <F> the protocol's flow
 * @param <S> the protocol's snapshot record
 */
public final class LoadDriver<F extends ClientFlow, S extends LoadProgress> {
    private static final Logger LOG = LoggerFactory.getLogger(LoadDriver.class);
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    /** A paced generator that fell behind (descheduled) does not catch up with more than this many ticks at once. */
    private static final long MAX_CATCH_UP_TICKS = 10;

    private final long ratePerSecond;
    private final int windowPerFlow;
    private final long timeoutNanos;
    private final Duration maxDuration;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final List<F> flows = new ArrayList<>();
    private final List<F> flowsView = Collections.unmodifiableList(flows);
    private final Histogram latencyMicros;
    /**
     * {@link #latencyMicros} as {@link #recentLatencyMicros} last saw it, and the difference since:
     * the recent answers come from one subtraction a call, not a second record per answer.
     */
    private final Histogram seenMicros;
    private final Histogram recentMicros;
    /** {@link #seenMicros} holds a copy taken since the histogram last started again (loop only). */
    private boolean seen;
    private final Supplier<S> snapshotter;
    // State below: event loop thread only.
    private ScheduledFuture<?> ticker;
    /** Written on the loop, read there per send and by {@code isDone()} callers on other threads. */
    private volatile boolean sending;
    private long startNanos;
    private long pacedSent;
    private int nextPacedFlow;
    private volatile S last;
    private volatile S marked;
    private volatile boolean closed;

    /**
     * Creates the event loop; nothing is bound until {@link #start}.
     *
     * @param snapshotter builds the protocol's snapshot, on the event loop
     * @param empty the snapshot returned before the first one is taken (and if none can be)
     * @param maxDuration stop sending after this long; null = until {@link #stopSending()} or close
     */
    public LoadDriver(long ratePerSecond, int windowPerFlow, long timeoutMs, Duration maxDuration,
                      Supplier<S> snapshotter, S empty) {
        this.ratePerSecond = ratePerSecond;
        this.windowPerFlow = windowPerFlow;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.maxDuration = maxDuration;
        this.snapshotter = snapshotter;
        this.last = empty;
        this.group = UdpSockets.newSingleThreadGroup();
        this.loop = group.next();
        this.latencyMicros = new Histogram(TimeUnit.MILLISECONDS.toMicros(timeoutMs), 3);
        this.seenMicros = new Histogram(TimeUnit.MILLISECONDS.toMicros(timeoutMs), 3);
        this.recentMicros = new Histogram(TimeUnit.MILLISECONDS.toMicros(timeoutMs), 3);
    }

    /**
     * Opens {@code count} flows, flow {@code i} made by {@code newFlow} and bound to
     * {@code sourceOf(i)} (ephemeral port), connected to {@code target}; then starts sending.
     *
     * @param what names the sockets in the error message
     * @throws IllegalStateException if a socket cannot be opened (everything is closed then), or when called twice
     */
    public void start(int count, IntFunction<F> newFlow, IntFunction<InetAddress> sourceOf, InetSocketAddress target,
                      String what) {
        if (!flows.isEmpty() || closed) {
            throw new IllegalStateException("already started");
        }
        try {
            for (int i = 0; i < count; i++) {
                F flow = newFlow.apply(i);
                Channel channel = UdpSockets.connect(loop, sourceOf.apply(i), target, flow);
                flow.attach(channel);
                flows.add(flow);
            }
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked-style
            close();
            throw new IllegalStateException("cannot open " + what + " from " + sourceOf.apply(0), e);
        }
        runOnLoop(this::startOnLoop);
    }

    /** Current snapshot; after {@link #close()} the final one. Blocks for at most a second. */
    public S snapshot() {
        if (closed || loop.isShuttingDown()) {
            return last;
        }
        try {
            S s = loop.submit(snapshotter::get).get(1, TimeUnit.SECONDS);
            last = s; // a starved loop's next snapshot falls back to these counters, not to empty ones
            return s;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            return last;
        }
    }

    /**
     * True once sending has stopped (maxDuration or {@link #stopSending()}) and nothing is
     * outstanding. A snapshot that timed out on a starved loop repeats the last one, which may
     * still say "sending": the driver's own flag decides then, so a run cannot end early.
     */
    public boolean isDone() {
        S s = snapshot();
        return !sending && !s.sending() && s.inFlight() == 0;
    }

    /**
     * Starts the measured window {@code after} the start, on the loop's own clock: the snapshot
     * taken then is {@link #marked()}, and the latency histogram starts again, so percentiles
     * describe the window only. A window's counters are a later snapshot less the marked one.
     * Call after {@link #start}; the window ends when sending stops (maxDuration).
     */
    public void markAfter(Duration after) {
        runOnLoop(() -> loop.schedule(this::mark, Math.max(0, startNanos + after.toNanos() - System.nanoTime()),
                TimeUnit.NANOSECONDS));
    }

    /** The snapshot the measured window starts from; null until {@link #markAfter} has passed. */
    public S marked() {
        return marked;
    }

    private void mark() {
        S s = snapshotter.get();
        latencyMicros.reset();
        seen = false; // the answers before the window are gone from the histogram: nothing to subtract
        marked = s;
    }

    /**
     * The latency percentile (µs) of the answers recorded since the previous call, which then
     * forgets them; 0 when none came. For a report of one line a second: the cumulative
     * percentile would show the first second's JIT warm-up on every line of the run. Runs on the
     * loop; blocks at most a second (0 if the loop is gone). One reporter per driver.
     */
    public long recentLatencyMicros(double percentile) {
        if (loop.isShuttingDown()) {
            return 0;
        }
        try {
            return loop.submit(() -> {
                latencyMicros.copyInto(recentMicros);
                if (seen) {
                    recentMicros.subtract(seenMicros);
                }
                latencyMicros.copyInto(seenMicros);
                seen = true;
                return recentMicros.getTotalCount() > 0 ? recentMicros.getValueAtPercentile(percentile) : 0;
            }).get(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            return 0;
        }
    }

    /** Stops sending new requests; outstanding ones still settle. */
    public void stopSending() {
        runOnLoop(() -> sending = false);
    }

    /** Stops everything and closes the sockets; the final snapshot stays available. Idempotent. */
    public void close() {
        if (closed) {
            return;
        }
        if (!loop.isShuttingDown()) {
            try {
                loop.submit(() -> {
                    sending = false;
                    if (ticker != null) {
                        ticker.cancel(false);
                    }
                    last = snapshotter.get();
                }).get(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
                LOG.debug("final snapshot not taken: {}", e.toString());
            }
        }
        closed = true;
        for (F flow : flows) {
            flow.close(CLOSE_TIMEOUT_MS);
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
    }

    // ---- for snapshot suppliers and flows, on the event loop ---------------------------------

    /** The open flows, in order (read-only). */
    public List<F> flows() {
        return flowsView;
    }

    /** Whether new requests may be sent. */
    public boolean sending() {
        return sending;
    }

    /** Latency percentile in microseconds, 0 before the first recorded answer. */
    public long latencyMicros(double percentile) {
        return latencyMicros.getTotalCount() > 0 ? latencyMicros.getValueAtPercentile(percentile) : 0;
    }

    /** Largest latency in microseconds, 0 before the first recorded answer. */
    public long maxLatencyMicros() {
        return latencyMicros.getTotalCount() > 0 ? latencyMicros.getMaxValue() : 0;
    }

    boolean closedLoop() {
        return ratePerSecond == 0;
    }

    int windowPerFlow() {
        return windowPerFlow;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    void recordLatency(long nanos) {
        // Values above the histogram's range only happen right at the timeout edge; clamp them.
        latencyMicros.recordValue(Math.min(nanos / 1_000, latencyMicros.getHighestTrackableValue()));
    }

    private void runOnLoop(Runnable task) {
        if (!loop.isShuttingDown()) {
            loop.execute(task);
        }
    }

    private void startOnLoop() {
        startNanos = System.nanoTime();
        sending = true;
        if (maxDuration != null) {
            loop.schedule(() -> {
                sending = false;
            }, maxDuration.toNanos(), TimeUnit.NANOSECONDS);
        }
        if (closedLoop()) {
            for (F flow : flows) {
                flow.fillWindow(startNanos);
                flow.flush();
            }
        }
        ticker = loop.scheduleAtFixedRate(this::tick, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Every millisecond: expire timed-out requests, then (paced mode) send what the schedule owes. */
    private void tick() {
        long now = System.nanoTime();
        for (F flow : flows) {
            flow.expire(now);
        }
        if (!sending || closedLoop()) {
            return;
        }
        long due = (now - startNanos) / 1_000 * ratePerSecond / 1_000_000 - pacedSent;
        long cap = Math.max(1, ratePerSecond * MAX_CATCH_UP_TICKS / 1_000);
        if (due > cap) {
            // Behind schedule after a stall: forget the missed sends instead of firing one burst.
            pacedSent += due - cap;
            due = cap;
        }
        for (long attempts = 0; due > 0 && attempts < due + flows.size(); attempts++) {
            F flow = flows.get(nextPacedFlow);
            nextPacedFlow = (nextPacedFlow + 1) % flows.size();
            if (flow.trySend(now)) {
                pacedSent++;
                due--;
            }
        }
        for (F flow : flows) {
            flow.flush();
        }
    }
}
