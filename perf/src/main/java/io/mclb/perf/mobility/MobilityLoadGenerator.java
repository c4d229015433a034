package io.mclb.perf.mobility;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * Mobility signalling load (a foreign agent or base station in a box): {@code sockets} client
 * sockets connected to the target send one {@link MobilityProtocol} request per counter, for
 * subscribers {@code 0..subscribers-1} in turn (distinct NAIs or MSIDs), paced or closed loop as
 * {@link LoadDriver} runs them. An answer accepted or rejected is matched by the echoed counter
 * bits; no answer within the timeout is lost; latency in an HdrHistogram.
 *
 * <p>Threading: every socket and all state live on one event loop thread; {@link #snapshot()} runs there.
 */
public final class MobilityLoadGenerator implements AutoCloseable, LoadRun<MobilityLoadGenerator.Snapshot> {

    /** Counters so far; latency percentiles in µs (0 before the first answer). */
    public record Snapshot(long sent, long accepted, long rejected, long lost, long unmatched, long inFlight,
                           long p50Micros, long p99Micros, long maxMicros, boolean sending) implements LoadProgress {
        public long answered() {
            return accepted + rejected;
        }
    }

    private final MobilityProtocol protocol;
    private final InetSocketAddress target;
    private final InetAddress source;
    private final int sockets;
    private final int window;
    private final long subscribers;
    private final LoadDriver<MobilityClientFlow, Snapshot> driver;
    private long cursor; // event loop only

    private MobilityLoadGenerator(Builder b) {
        this.protocol = b.protocol;
        this.target = b.target;
        this.source = b.source;
        this.sockets = b.sockets;
        this.window = b.window;
        this.subscribers = b.subscribers;
        this.driver = new LoadDriver<>(b.ratePerSecond, b.window, b.timeoutMs, b.maxDuration, this::snapshotOnLoop,
                new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, false));
    }

    public static Builder builder(MobilityProtocol protocol) {
        return new Builder(protocol);
    }

    MobilityProtocol protocol() {
        return protocol;
    }

    long nextSubscriber() {
        long n = cursor;
        cursor = cursor + 1 == subscribers ? 0 : cursor + 1;
        return n;
    }

    public MobilityLoadGenerator start() {
        int slots = ClientFlow.slotsFor(window);
        if (Long.numberOfTrailingZeros(slots) > protocol.keyBits()) {
            throw new IllegalStateException("window " + window + " too large for " + protocol.keyBits() + "-bit keys");
        }
        driver.start(sockets, i -> new MobilityClientFlow(this, driver, i, slots), i -> source, target,
                protocol.name() + " generator sockets");
        return this;
    }

    @Override
    public LoadDriver<?, Snapshot> driver() {
        return driver;
    }

    @Override
    public Snapshot since(Snapshot later, Snapshot base) {
        return new Snapshot(later.sent() - base.sent(), later.accepted() - base.accepted(), later.rejected() - base.rejected(),
                later.lost() - base.lost(), later.unmatched() - base.unmatched(), later.inFlight(), later.p50Micros(),
                later.p99Micros(), later.maxMicros(), later.sending());
    }

    @Override
    public void close() {
        driver.close();
    }

    private Snapshot snapshotOnLoop() {
        long[] s = new long[6];
        for (MobilityClientFlow f : driver.flows()) {
            s[0] += f.sent;
            s[1] += f.accepted;
            s[2] += f.rejected;
            s[3] += f.lost;
            s[4] += f.unmatched;
            s[5] += f.inFlight();
        }
        return new Snapshot(s[0], s[1], s[2], s[3], s[4], s[5], driver.latencyMicros(50), driver.latencyMicros(99),
                driver.maxLatencyMicros(), driver.sending());
    }

    /** Settings; defaults: 8 sockets, 1000 requests/s, window 32, 1,000,000 subscribers, 1 s timeout. */
    public static final class Builder {
        private final MobilityProtocol protocol;
        private InetSocketAddress target;
        private InetAddress source = InetAddress.getLoopbackAddress();
        private int sockets = 8;
        private long ratePerSecond = 1000;
        private int window = 32;
        private long subscribers = 1_000_000;
        private long timeoutMs = 1_000;
        private Duration maxDuration;

        private Builder(MobilityProtocol protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
        }

        public Builder target(InetSocketAddress t) {
            this.target = Objects.requireNonNull(t, "target");
            return this;
        }

        public Builder source(InetAddress s) {
            this.source = Objects.requireNonNull(s, "source");
            return this;
        }

        /** Client sockets, 1..256 (the flow number sits in 8 bits of a Mobile IP Identification). */
        public Builder sockets(int n) {
            this.sockets = (int) range("sockets", n, 1, 256);
            return this;
        }

        /** Requests per second over all sockets, 0 = closed loop. */
        public Builder ratePerSecond(long r) {
            this.ratePerSecond = range("ratePerSecond", r, 0, 10_000_000);
            return this;
        }

        /** Outstanding requests per socket, 1..4096. */
        public Builder window(int w) {
            this.window = (int) range("window", w, 1, 4096);
            return this;
        }

        /** Distinct subscribers (NAIs, MSIDs), used in turn. */
        public Builder subscribers(long n) {
            this.subscribers = range("subscribers", n, 1, 10_000_000_000L);
            return this;
        }

        public Builder timeoutMs(long ms) {
            this.timeoutMs = range("timeoutMs", ms, 1, 60_000);
            return this;
        }

        public Builder maxDuration(Duration d) {
            this.maxDuration = d;
            return this;
        }

        public MobilityLoadGenerator start() {
            if (target == null) {
                throw new IllegalStateException("target is required");
            }
            return new MobilityLoadGenerator(this).start();
        }

        private static long range(String name, long v, long min, long max) {
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ": " + v);
            }
            return v;
        }
    }
}
