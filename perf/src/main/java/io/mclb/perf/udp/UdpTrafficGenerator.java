package io.mclb.perf.udp;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadBuilder;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import io.mclb.perf.load.LoadShape;
import java.net.Inet4Address;
import java.net.InetAddress;
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
public final class UdpTrafficGenerator implements LoadRun<UdpTrafficGenerator.Snapshot> {
    private static final Logger LOG = LoggerFactory.getLogger(UdpTrafficGenerator.class);

    /** The latest counters; latency percentiles are in microseconds (0 before the first answer). */
    public record Snapshot(long sent, long answered, long lost, long inFlight, long p50Micros, long p99Micros,
                           long maxMicros, boolean sending) implements LoadProgress {
    }

    private final Settings config;
    private final LoadDriver<GeneratorFlow, Snapshot> driver;

    private UdpTrafficGenerator(Settings config) {
        this.config = config;
        this.driver = config.load().driver(this::snapshotOnLoop, new Snapshot(0, 0, 0, 0, 0, 0, 0, false));
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
        LoadShape load = config.load();
        int slots = ClientFlow.slotsFor(load.window());
        driver.start(load.sockets(), i -> new GeneratorFlow(driver, config.requestBytes(), slots), this::sourceOf,
                load.target(), "generator flows");
        LOG.info("traffic generator: {} flows {} -> {}, {}", load.sockets(), load.source(), load.target(), load.pace("req"));
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

    /** Flow {@code i}'s source IP: the i-th (mod sourceCount) address counting up from {@code source}. */
    private InetAddress sourceOf(int flow) {
        int offset = flow % config.sourceCount();
        if (offset == 0) {
            return config.load().source();
        }
        byte[] ip = config.load().source().getAddress();
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
    private record Settings(LoadShape load, int sourceCount, int requestBytes) {
    }

    /**
     * Settings; the defaults make a gentle generator: 4 flows (client sockets, at most 1024), 100
     * req/s, window 64 per flow (at most 4096), 1 s timeout.
     */
    public static final class Builder extends LoadBuilder<Builder> {
        private int sourceCount = 1;
        private int requestBytes = 64;

        private Builder() {
            super(100, 64, 1024, 4096);
            sockets(4);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * Spread the flows round robin over this many consecutive source IPs starting at
         * {@link #source} (e.g. 127.0.1.1 and 64: 64 distinct "peers" for a source-hashing
         * balancer); IPv4 only when above 1; default 1.
         */
        public Builder sourceCount(int sourceCount) {
            this.sourceCount = (int) requireRange("sourceCount", sourceCount, 1, 65_536);
            return this;
        }

        /** Client sockets, each a flow of the balancer under test: {@link #sockets} by this benchmark's name. */
        public Builder flows(int flows) {
            return sockets(flows);
        }

        /** Outstanding requests per flow: {@link #window} by this benchmark's name. */
        public Builder windowPerFlow(int windowPerFlow) {
            return window(windowPerFlow);
        }

        /** Request datagram size, 8..1400 bytes (sequence number + padding); default 64. */
        public Builder requestBytes(int requestBytes) {
            this.requestBytes = (int) requireRange("requestBytes", requestBytes, 8, 1400);
            return this;
        }

        /** Builds the generator without starting it. */
        public UdpTrafficGenerator build() {
            LoadShape load = shape();
            if (sourceCount > 1 && !(load.source() instanceof Inet4Address)) {
                throw new IllegalStateException("sourceCount > 1 needs an IPv4 source: " + load.source());
            }
            return new UdpTrafficGenerator(new Settings(load, sourceCount, requestBytes));
        }

        /** Builds and {@linkplain UdpTrafficGenerator#start() starts}. */
        public UdpTrafficGenerator start() {
            return build().start();
        }
    }
}
