package io.mclb.perf.gtp.load;

import io.mclb.gtp.Apn;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadBuilder;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import io.mclb.perf.load.LoadShape;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GTP-C create load (an SGSN / SGW in a box): {@code sockets} client sockets, each connected to
 * the target, send Create PDP Context Requests (v1, default), Create Session Requests (v2) or v0
 * Create PDP Context Requests, with IMSIs {@code imsiBase + i} for i cycling over
 * {@code 0..imsiCount-1} (15 digits, e.g. 001010000000000 + i) and a per-socket sequence number.
 * Responses are matched by (socket, sequence); a Create answered with an accept-class cause
 * counts as accepted, any other cause as rejected, no answer within the timeout as lost. The
 * create latency goes into an HdrHistogram (microseconds). With churn, every accepted session is
 * deleted at once (Delete PDP Context / Delete Session to the same target, carrying the GGSN's
 * TEID-C from the response).
 *
 * <p>Paced ({@code ratePerSecond > 0}: that many creates per second, at most {@code window}
 * outstanding per socket) or closed loop ({@code ratePerSecond == 0}: each socket keeps
 * {@code window} requests outstanding). Sending stops by itself after {@code maxDuration}, then
 * the outstanding requests settle; {@link #isDone()} turns true once nothing is outstanding.
 *
 * <p>Threading: every socket and all state live on one event loop thread; {@link #snapshot()} runs there.
 */
public final class GtpLoadGenerator implements LoadRun<GtpLoadGenerator.Snapshot> {
    private static final Logger LOG = LoggerFactory.getLogger(GtpLoadGenerator.class);
    static final int NSAPI = 5;
    static final int EBI = 5;

    /**
     * Counters so far; creates = sent Create requests; latency percentiles (µs, creates only, 0
     * before the first answer); deletes* only with churn.
     */
    public record Snapshot(long creates, long accepted, long rejected, long lost, long deletes, long deletesAccepted,
                           long deletesLost, long unmatched, long inFlight, long p50Micros, long p99Micros,
                           long maxMicros, boolean sending) implements LoadProgress {
        /** Creates answered (accepted or rejected). */
        public long answered() {
            return accepted + rejected;
        }
    }

    private final Settings config;
    private final LoadDriver<GtpClientFlow, Snapshot> driver;
    private final byte[] ownAddress;
    private final byte[] apnWire;
    // Event loop only.
    private long imsiCursor;
    private int localId;

    private GtpLoadGenerator(Settings config) {
        this.config = config;
        this.driver = config.load().driver(this::snapshotOnLoop, new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false));
        this.ownAddress = config.load().source().getAddress();
        this.apnWire = Apn.encode(config.apn());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and connects the sockets, then starts sending.
     *
     * @throws IllegalStateException if a socket cannot be opened, or when called twice
     */
    public GtpLoadGenerator start() {
        LoadShape load = config.load();
        int slots = ClientFlow.slotsFor(load.window());
        driver.start(load.sockets(), i -> new GtpClientFlow(this, driver, config.version(), slots),
                i -> load.source(), load.target(), "GTP generator sockets");
        LOG.info("GTP load: v{} {} sockets {} -> {}, {} IMSIs, {}{}", config.version(), load.sockets(), load.source(),
                load.target(), config.imsiCount(), load.pace("creates"), config.churn() ? ", delete after accept" : "");
        return this;
    }

    @Override
    public LoadDriver<?, Snapshot> driver() {
        return driver;
    }

    @Override
    public Snapshot since(Snapshot later, Snapshot base) {
        return new Snapshot(later.creates() - base.creates(), later.accepted() - base.accepted(),
                later.rejected() - base.rejected(), later.lost() - base.lost(), later.deletes() - base.deletes(),
                later.deletesAccepted() - base.deletesAccepted(), later.deletesLost() - base.deletesLost(),
                later.unmatched() - base.unmatched(), later.inFlight(), later.p50Micros(), later.p99Micros(),
                later.maxMicros(), later.sending());
    }

    private Snapshot snapshotOnLoop() {
        long[] s = new long[10];
        for (GtpClientFlow f : driver.flows()) {
            s[0] += f.creates;
            s[1] += f.accepted;
            s[2] += f.rejected;
            s[3] += f.lost;
            s[4] += f.deletes;
            s[5] += f.deletesAccepted;
            s[6] += f.deletesLost;
            s[7] += f.unmatched;
            s[8] += f.inFlight();
        }
        return new Snapshot(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], driver.latencyMicros(50),
                driver.latencyMicros(99), driver.maxLatencyMicros(), driver.sending());
    }

    // ---- called by the flows, on the event loop -------------------------------------------

    boolean churn() {
        return config.churn();
    }

    TidLayout tidLayout() {
        return config.tidLayout();
    }

    byte[] ownAddress() {
        return ownAddress;
    }

    byte[] apn() {
        return apnWire;
    }

    /** The next IMSI of the range, as the 8-octet TBCD IMSI IE value. */
    long nextImsiRaw() {
        long i = imsiCursor;
        imsiCursor = imsiCursor + 1 == config.imsiCount() ? 0 : imsiCursor + 1;
        return GtpRequestEncoder.imsiRaw(config.imsiBase() + i, 15);
    }

    /** A fresh non-zero local TEID-C / flow label. */
    int nextLocalId() {
        localId++;
        if (localId == 0) {
            localId = 1;
        }
        return localId;
    }

    private record Settings(LoadShape load, int version, long imsiBase, long imsiCount, boolean churn, String apn,
                            TidLayout tidLayout) {
    }

    /**
     * Settings; defaults: v1, 8 sockets, 100 creates/s, window 64 (at most 4096), 1,000,000 IMSIs
     * from 001010000000000, 1 s timeout.
     */
    public static final class Builder extends LoadBuilder<Builder> {
        private int version = 1;
        private long imsiBase = 1_010_000_000_000L;
        private long imsiCount = 1_000_000;
        private boolean churn;
        private String apn = "internet";
        private TidLayout tidLayout = TidLayout.OSMO_GGSN;

        private Builder() {
            super(100, 64, 1024, 4096);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** GTP version 0, 1 or 2; default 1. */
        public Builder version(int version) {
            this.version = (int) requireRange("version", version, 0, 2);
            return this;
        }

        /** First IMSI as a number (15 digits with leading zeros); default 001010000000000. */
        public Builder imsiBase(long base) {
            this.imsiBase = requireRange("imsiBase", base, 0, 999_999_999_999_999L);
            return this;
        }

        /** Distinct IMSIs, used in turn; default 1,000,000. */
        public Builder imsiCount(long count) {
            this.imsiCount = requireRange("imsiCount", count, 1, 1_000_000_000_000L);
            return this;
        }

        /** Delete every accepted session right away (session churn); default off. */
        public Builder churn(boolean churn) {
            this.churn = churn;
            return this;
        }

        /** APN in dotted form; default "internet". */
        public Builder apn(String apn) {
            Apn.encode(apn); // validates now rather than at start
            this.apn = apn;
            return this;
        }

        /** v0 TID layout; default {@link TidLayout#OSMO_GGSN}. */
        public Builder tidLayout(TidLayout layout) {
            this.tidLayout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        public GtpLoadGenerator build() {
            LoadShape load = shape();
            if (imsiBase + imsiCount - 1 > 999_999_999_999_999L) {
                throw new IllegalStateException("IMSI range exceeds 15 digits: " + imsiBase + " + " + imsiCount);
            }
            return new GtpLoadGenerator(new Settings(load, version, imsiBase, imsiCount, churn, apn, tidLayout));
        }

        public GtpLoadGenerator start() {
            return build().start();
        }
    }
}
