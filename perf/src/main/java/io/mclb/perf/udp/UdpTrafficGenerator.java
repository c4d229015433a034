package io.mclb.perf.udp;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
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
public final class UdpTrafficGenerator implements AutoCloseable, LoadRun<UdpTrafficGenerator.Snapshot> {
    private static final Logger LOG = LoggerFactory.getLogger(UdpTrafficGenerator.class);

    /** The latest counters; latency percentiles are in microseconds (0 before the first answer). */
    public record Snapshot(long sent, long answered, long lost, long inFlight, long p50Micros, long p99Micros,
                           long maxMicros, boolean sending) implements LoadProgress {
    }

    private final Settings config;
    private final LoadDriver<GeneratorFlow, Snapshot> driver;

    private UdpTrafficGenerator(Settings config) {
        this.config = config;
        this.driver = new LoadDriver<>(config.ratePerSecond(), config.windowPerFlow(), config.timeoutMs(),
                config.maxDuration(), this::snapshotOnLoop, new Snapshot(0, 0, 0, 0, 0, 0, 0, false));
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
        int slots = ClientFlow.slotsFor(config.windowPerFlow());
        driver.start(config.flows(), i -> new GeneratorFlow(driver, config.requestBytes(), slots), this::sourceOf,
                config.target(), "generator flows");
        LOG.info("traffic generator: {} flows {} -> {}, {}", config.flows(), config.source(), config.target(),
                config.ratePerSecond() > 0 ? config.ratePerSecond() + " req/s" : "closed loop, window " + config.windowPerFlow());
        return this;
    }

    @Override
    public LoadDriver<?, Snapshot> driver() {
        return driver;
    }

    @Override
    public Snapshot since(Snapshot later, Snapshot base) {
        return new Snapshot(later.sent() - base.sent(), later.answered() - base.answered(), later.lost() - base.lost(),
                later.inFlight(), later.p50Micros(), later.p99Micros(), later.maxMicros(), later.sending());
    }

    /** Stops sending new requests; outstanding ones still settle. */
    public void stopSending() {
        driver.stopSending();
    }

    /** Stops everything and closes the sockets; the final counters stay available. Idempotent. */
    @Override
    public void close() {
        driver.close();
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

    private Snapshot snapshotOnLoop() {
        long sent = 0;
        long answered = 0;
        long lost = 0;
        long inFlight = 0;
        for (GeneratorFlow flow : driver.flows()) {
            sent += flow.sent();
            answered += flow.answered();
            lost += flow.lost();
            inFlight += flow.inFlight();
        }
        return new Snapshot(sent, answered, lost, inFlight, driver.latencyMicros(50), driver.latencyMicros(99),
                driver.maxLatencyMicros(), driver.sending());
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
