package io.mclb.perf.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Light request/response UDP traffic for {@code mclb demo} and tests: {@code flows} client
 * sockets, each bound to the source address on its own ephemeral port and connected to the
 * target, send requests whose first 8 bytes are a per-flow sequence number (big endian) followed
 * by padding. An answer is any datagram from the target that starts with the sequence number of
 * an outstanding request; a request unanswered after {@code timeoutMs} counts as lost.
 *
 * <p>Two modes: paced ({@code ratePerSecond > 0}: that many requests per second in total, spread
 * round robin over the flows, at most {@code windowPerFlow} outstanding per flow) and closed loop
 * ({@code ratePerSecond == 0}: every flow keeps {@code windowPerFlow} requests outstanding and
 * sends the next one as soon as one is answered or lost).
 *
 * <p>It stops sending by itself after {@code maxDuration} (if set), then settles the requests still
 * outstanding (answer or timeout); {@link #isDone()} turns true once nothing is outstanding.
 *
 * <p>Threading: every socket and all state live on one event loop thread; {@link #snapshot()}
 * runs there too, so counters and the latency histogram need no locks.
 */
public final class UdpTrafficGenerator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UdpTrafficGenerator.class);
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    /** A paced generator that fell behind (descheduled) does not catch up with more than this many ticks at once. */
    private static final long MAX_CATCH_UP_TICKS = 10;

    /** The latest counters; latency percentiles are in microseconds (0 before the first answer). */
    public record Snapshot(long sent, long answered, long lost, long inFlight, long p50Micros, long p99Micros,
                           long maxMicros, boolean sending) {
    }

    private final Settings config;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final List<GeneratorFlow> flows = new ArrayList<>();
    private final Histogram latencyMicros;
    private final long timeoutNanos;
    // State below: event loop thread only.
    private ScheduledFuture<?> ticker;
    private boolean sending;
    private long startNanos;
    private long pacedSent;
    private int nextPacedFlow;
    private volatile Snapshot last = new Snapshot(0, 0, 0, 0, 0, 0, 0, false);
    private volatile boolean closed;

    private UdpTrafficGenerator(Settings config) {
        this.config = config;
        this.group = UdpTransport.newSingleThreadGroup();
        this.loop = group.next();
        this.latencyMicros = new Histogram(TimeUnit.MILLISECONDS.toMicros(config.timeoutMs()), 3);
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.timeoutMs());
    }

    /** A new builder; {@link Builder#target} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and connects the flows, then starts sending.
     *
     * @throws IllegalStateException if a socket cannot be bound, or when called twice
     */
    public UdpTrafficGenerator start() {
        if (!flows.isEmpty() || closed) {
            throw new IllegalStateException("already started");
        }
        int slots = GeneratorFlow.slotsFor(config.windowPerFlow());
        try {
            for (int i = 0; i < config.flows(); i++) {
                GeneratorFlow flow = new GeneratorFlow(this, config.requestBytes(), slots);
                Channel channel = new Bootstrap()
                        .group(loop)
                        .channelFactory(UdpTransport.channelFactory(config.target().getAddress()))
                        .option(ChannelOption.SO_RCVBUF, UdpTransport.SOCKET_BUFFER_BYTES)
                        .option(ChannelOption.SO_SNDBUF, UdpTransport.SOCKET_BUFFER_BYTES)
                        .handler(flow)
                        .localAddress(new InetSocketAddress(sourceOf(i), 0))
                        .connect(config.target())
                        .syncUninterruptibly()
                        .channel();
                flow.attach(channel);
                flows.add(flow);
            }
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked-style
            close();
            throw new IllegalStateException("cannot open generator flows from " + config.source(), e);
        }
        runOnLoop(this::startOnLoop);
        LOG.info("traffic generator: {} flows {} -> {}, {}", config.flows(), config.source(), config.target(),
                config.ratePerSecond() > 0 ? config.ratePerSecond() + " req/s" : "closed loop, window " + config.windowPerFlow());
        return this;
    }

    /** Current counters; after {@link #close()} the final ones. Blocks for at most a second. */
    public Snapshot snapshot() {
        if (closed || loop.isShuttingDown()) {
            return last;
        }
        try {
            return loop.submit(this::snapshotOnLoop).get(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last;
        } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
            return last;
        }
    }

    /** True once sending has stopped (maxDuration or {@link #stopSending()}) and nothing is outstanding. */
    public boolean isDone() {
        Snapshot s = snapshot();
        return !s.sending() && s.inFlight() == 0;
    }

    /** Stops sending new requests; outstanding ones still settle. */
    public void stopSending() {
        runOnLoop(() -> sending = false);
    }

    /** Stops everything and closes the sockets; the final counters stay available. Idempotent. */
    @Override
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
                    last = snapshotOnLoop();
                }).get(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
                LOG.debug("final snapshot not taken: {}", e.toString());
            }
        }
        closed = true;
        for (GeneratorFlow flow : flows) {
            flow.close(CLOSE_TIMEOUT_MS);
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
    }

    /** Flow {@code i}'s source IP: the i-th (mod sourceCount) address counting up from {@code source}. */
    private InetAddress sourceOf(int flow) {
        int offset = flow % config.sourceCount();
        if (offset == 0) {
            return config.source();
        }
        byte[] ip = config.source().getAddress();
        int value = ((ip[0] & 0xff) << 24 | (ip[1] & 0xff) << 16 | (ip[2] & 0xff) << 8 | (ip[3] & 0xff)) + offset;
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen for a 4-byte address
        }
    }

    private void runOnLoop(Runnable task) {
        if (!loop.isShuttingDown()) {
            loop.execute(task);
        }
    }

    private void startOnLoop() {
        startNanos = System.nanoTime();
        sending = true;
        if (config.maxDuration() != null) {
            loop.schedule(() -> {
                sending = false;
            }, config.maxDuration().toNanos(), TimeUnit.NANOSECONDS);
        }
        if (config.ratePerSecond() == 0) {
            for (GeneratorFlow flow : flows) {
                flow.fillWindow(startNanos);
            }
        }
        ticker = loop.scheduleAtFixedRate(this::tick, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Every millisecond: expire timed-out requests, then (paced mode) send what the schedule owes. */
    private void tick() {
        long now = System.nanoTime();
        for (GeneratorFlow flow : flows) {
            flow.expire(now);
        }
        if (!sending || config.ratePerSecond() == 0) {
            return;
        }
        long due = (now - startNanos) / 1_000 * config.ratePerSecond() / 1_000_000 - pacedSent;
        long cap = Math.max(1, config.ratePerSecond() * MAX_CATCH_UP_TICKS / 1_000);
        if (due > cap) {
            // Behind schedule after a stall: forget the missed sends instead of firing one burst.
            pacedSent += due - cap;
            due = cap;
        }
        for (long attempts = 0; due > 0 && attempts < due + flows.size(); attempts++) {
            GeneratorFlow flow = flows.get(nextPacedFlow);
            nextPacedFlow = (nextPacedFlow + 1) % flows.size();
            if (flow.trySend(now)) {
                pacedSent++;
                due--;
            }
        }
        for (GeneratorFlow flow : flows) {
            flow.flush();
        }
    }

    private Snapshot snapshotOnLoop() {
        long sent = 0;
        long answered = 0;
        long lost = 0;
        long inFlight = 0;
        for (GeneratorFlow flow : flows) {
            sent += flow.sent();
            answered += flow.answered();
            lost += flow.lost();
            inFlight += flow.inFlight();
        }
        boolean any = latencyMicros.getTotalCount() > 0;
        return new Snapshot(sent, answered, lost, inFlight,
                any ? latencyMicros.getValueAtPercentile(50) : 0,
                any ? latencyMicros.getValueAtPercentile(99) : 0,
                any ? latencyMicros.getMaxValue() : 0,
                sending);
    }

    // ---- called by the flows, on the event loop -------------------------------------------

    boolean sending() {
        return sending;
    }

    boolean closedLoop() {
        return config.ratePerSecond() == 0;
    }

    int windowPerFlow() {
        return config.windowPerFlow();
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    void recordLatency(long nanos) {
        // Values above the histogram's range only happen right at the timeout edge; clamp them.
        latencyMicros.recordValue(Math.min(nanos / 1_000, latencyMicros.getHighestTrackableValue()));
    }

    /** What a builder held when {@link Builder#build()} ran: later builder changes do not leak in. */
    private record Settings(InetSocketAddress target, InetAddress source, int sourceCount, int flows, long ratePerSecond,
                            int windowPerFlow, long timeoutMs, int requestBytes, Duration maxDuration) {
    }

    /** Settings; the defaults make a gentle generator: 4 flows, 100 req/s, 1 s timeout. */
    public static final class Builder {
        private InetSocketAddress target;
        private InetAddress source = InetAddress.getLoopbackAddress();
        private int sourceCount = 1;
        private int flows = 4;
        private long ratePerSecond = 100;
        private int windowPerFlow = 64;
        private long timeoutMs = 1_000;
        private int requestBytes = 64;
        private Duration maxDuration;

        private Builder() {
        }

        /** Where requests go (required). */
        public Builder target(InetSocketAddress target) {
            this.target = Objects.requireNonNull(target, "target");
            return this;
        }

        /** Source IP of every flow (ports are ephemeral); default the loopback address. */
        public Builder source(InetAddress source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Spread the flows round robin over this many consecutive source IPs starting at
         * {@link #source} (e.g. 127.0.1.1 and 64: 64 distinct "peers" for a source-hashing
         * balancer); IPv4 only when above 1; default 1.
         */
        public Builder sourceCount(int sourceCount) {
            this.sourceCount = requireRange("sourceCount", sourceCount, 1, 65_536);
            return this;
        }

        /** Number of client sockets, 1..1024; default 4. */
        public Builder flows(int flows) {
            this.flows = requireRange("flows", flows, 1, 1024);
            return this;
        }

        /** Total requests per second over all flows, 0 = closed loop; default 100. */
        public Builder ratePerSecond(long ratePerSecond) {
            this.ratePerSecond = requireRange("ratePerSecond", ratePerSecond, 0, 10_000_000);
            return this;
        }

        /** Outstanding requests per flow, 1..4096: the closed-loop window and the paced cap; default 64. */
        public Builder windowPerFlow(int windowPerFlow) {
            this.windowPerFlow = requireRange("windowPerFlow", windowPerFlow, 1, 4096);
            return this;
        }

        /** A request unanswered this long is lost, 1..60000 ms; default 1000. */
        public Builder timeoutMs(long timeoutMs) {
            this.timeoutMs = requireRange("timeoutMs", timeoutMs, 1, 60_000);
            return this;
        }

        /** Request datagram size, 8..1400 bytes (sequence number + padding); default 64. */
        public Builder requestBytes(int requestBytes) {
            this.requestBytes = requireRange("requestBytes", requestBytes, 8, 1400);
            return this;
        }

        /** Stop sending after this long (null = until {@link #stopSending()} or close). */
        public Builder maxDuration(Duration maxDuration) {
            if (maxDuration != null && (maxDuration.isNegative() || maxDuration.isZero())) {
                throw new IllegalArgumentException("maxDuration must be positive: " + maxDuration);
            }
            this.maxDuration = maxDuration;
            return this;
        }

        /** Builds the generator without starting it. */
        public UdpTrafficGenerator build() {
            if (target == null) {
                throw new IllegalStateException("target is required");
            }
            if (sourceCount > 1 && !(source instanceof java.net.Inet4Address)) {
                throw new IllegalStateException("sourceCount > 1 needs an IPv4 source: " + source);
            }
            return new UdpTrafficGenerator(new Settings(target, source, sourceCount, flows, ratePerSecond, windowPerFlow,
                    timeoutMs, requestBytes, maxDuration));
        }

        /** Builds and {@linkplain UdpTrafficGenerator#start() starts}. */
        public UdpTrafficGenerator start() {
            return build().start();
        }

        private static int requireRange(String name, int value, int min, int max) {
            return (int) requireRange(name, (long) value, min, max);
        }

        private static long requireRange(String name, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ": " + value);
            }
            return value;
        }
    }
}
