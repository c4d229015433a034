package io.mclb.perf.mobility;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadBuilder;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import io.mclb.perf.load.LoadShape;
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
public final class MobilityLoadGenerator implements LoadRun<MobilityLoadGenerator.Snapshot> {

    /** Counters so far; latency percentiles in µs (0 before the first answer). */
    public record Snapshot(long sent, long accepted, long rejected, long lost, long unmatched, long inFlight,
                           long p50Micros, long p99Micros, long maxMicros, boolean sending) implements LoadProgress {
        public long answered() {
            return accepted + rejected;
        }
    }

    private final MobilityProtocol protocol;
    private final LoadShape load;
    private final long subscribers;
    private final LoadDriver<MobilityClientFlow, Snapshot> driver;
    private long cursor; // event loop only

    private MobilityLoadGenerator(MobilityProtocol protocol, LoadShape load, long subscribers) {
        this.protocol = protocol;
        this.load = load;
        this.subscribers = subscribers;
        this.driver = load.driver(this::snapshotOnLoop, new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, false));
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
        int slots = ClientFlow.slotsFor(load.window());
        if (Long.numberOfTrailingZeros(slots) > protocol.keyBits()) {
            throw new IllegalStateException("window " + load.window() + " too large for " + protocol.keyBits() + "-bit keys");
        }
        driver.start(load.sockets(), i -> new MobilityClientFlow(this, driver, i, slots), i -> load.source(), load.target(),
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
    public static final class Builder extends LoadBuilder<Builder> {
        private final MobilityProtocol protocol;
        private long subscribers = 1_000_000;

        /** Sockets at most 256: the flow number sits in 8 bits of a Mobile IP Identification. */
        private Builder(MobilityProtocol protocol) {
            super(1000, 32, 256, 4096);
            this.protocol = Objects.requireNonNull(protocol, "protocol");
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** Distinct subscribers (NAIs, MSIDs), used in turn. */
        public Builder subscribers(long n) {
            this.subscribers = requireRange("subscribers", n, 1, 10_000_000_000L);
            return this;
        }

        public MobilityLoadGenerator start() {
            return new MobilityLoadGenerator(protocol, shape(), subscribers).start();
        }
    }
}
