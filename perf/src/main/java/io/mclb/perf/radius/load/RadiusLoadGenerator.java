package io.mclb.perf.radius.load;

import io.mclb.perf.load.LoadBuilder;
import io.mclb.perf.load.LoadDriver;
import io.mclb.perf.load.LoadProgress;
import io.mclb.perf.load.LoadRun;
import io.mclb.perf.load.LoadShape;
import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import java.net.Inet4Address;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RADIUS load (a NAS / GGSN in a box): {@code sockets} client sockets, each connected to the
 * target, send Access-Requests ({@link Kind#AUTH}: User-Name, User-Password hidden with the secret,
 * Calling-Station-Id, NAS-IP-Address) or Accounting-Requests ({@link Kind#ACCT}: Acct-Status-Type,
 * User-Name, Calling-Station-Id, Framed-IP-Address, Acct-Session-Id, NAS-IP-Address), optionally
 * with Message-Authenticator, for subscribers {@code i} cycling over {@code 0..subscribers-1}
 * (Calling-Station-Id {@code msisdnBase + i}, Framed-IP {@code framedBase + i}). Accounting walks
 * each subscriber through Start, Interim-Update, Stop on successive passes over the range.
 *
 * <p>Every response is matched by (socket, Identifier) and its Response Authenticator (and
 * Message-Authenticator when present) verified with the secret: a response that does not verify
 * counts as a bad authenticator, not as an answer; no answer within the timeout counts as lost.
 * The latency of verified answers goes into an HdrHistogram (microseconds).
 *
 * <p>Paced ({@code ratePerSecond > 0}: that many requests per second, at most {@code window}
 * outstanding per socket) or closed loop ({@code ratePerSecond == 0}: each socket keeps
 * {@code window} requests outstanding); window at most 256, the Identifier space, so use enough
 * sockets. Sending stops by itself after {@code maxDuration}; {@link #isDone()} turns true once
 * nothing is outstanding.
 *
 * <p>Threading: every socket and all state (codec objects included) live on one event loop thread;
 * {@link #snapshot()} runs there.
 */
public final class RadiusLoadGenerator implements LoadRun<RadiusLoadGenerator.Snapshot> {
    private static final Logger LOG = LoggerFactory.getLogger(RadiusLoadGenerator.class);
    private static final int[] ACCT_CYCLE = {RadiusAttributes.ACCT_STATUS_START,
        RadiusAttributes.ACCT_STATUS_INTERIM_UPDATE, RadiusAttributes.ACCT_STATUS_STOP};

    /** What the generator sends. */
    public enum Kind { AUTH, ACCT }

    /**
     * Counters so far: sent requests; verified answers by kind; bad = answers whose authenticator
     * did not verify; latency percentiles (µs, verified answers, 0 before the first).
     */
    public record Snapshot(long sent, long accepts, long rejects, long acctResponses, long badAuthenticators,
                           long lost, long unmatched, long inFlight, long p50Micros, long p99Micros, long maxMicros,
                           boolean sending) implements LoadProgress {
        /** Verified answers of any code. */
        public long answered() {
            return accepts + rejects + acctResponses;
        }
    }

    private final Settings config;
    private final LoadDriver<RadiusClientFlow, Snapshot> driver;
    // Event loop only.
    private final RadiusRequestEncoder encoder;
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket response = new RadiusPacket();
    private final byte[] requestAuth = new byte[16];
    private long cursor;

    private RadiusLoadGenerator(Settings config) {
        this.config = config;
        this.driver = config.load().driver(this::snapshotOnLoop, new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false));
        byte[] src = config.load().source().getAddress();
        int nasIp = src.length == 4 ? (src[0] & 0xFF) << 24 | (src[1] & 0xFF) << 16 | (src[2] & 0xFF) << 8 | (src[3] & 0xFF)
                : 0x7F000001;
        this.encoder = new RadiusRequestEncoder(config.secret(), config.password(), nasIp, config.messageAuthenticator());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and connects the sockets, then starts sending.
     *
     * @throws IllegalStateException if a socket cannot be opened, or when called twice
     */
    public RadiusLoadGenerator start() {
        LoadShape load = config.load();
        driver.start(load.sockets(), i -> new RadiusClientFlow(this, driver), i -> load.source(), load.target(),
                "RADIUS generator sockets");
        LOG.info("RADIUS load: {} {} sockets {} -> {}, {} subscribers, {}{}", config.kind(), load.sockets(),
                load.source(), load.target(), config.subscribers(), load.pace("requests"),
                config.messageAuthenticator() ? ", Message-Authenticator" : "");
        return this;
    }

    @Override
    public LoadDriver<?, Snapshot> driver() {
        return driver;
    }

    @Override
    public Snapshot since(Snapshot later, Snapshot base) {
        return new Snapshot(later.sent() - base.sent(), later.accepts() - base.accepts(), later.rejects() - base.rejects(),
                later.acctResponses() - base.acctResponses(), later.badAuthenticators() - base.badAuthenticators(),
                later.lost() - base.lost(), later.unmatched() - base.unmatched(), later.inFlight(), later.p50Micros(),
                later.p99Micros(), later.maxMicros(), later.sending());
    }

    private Snapshot snapshotOnLoop() {
        long[] s = new long[8];
        for (RadiusClientFlow f : driver.flows()) {
            s[0] += f.sent;
            s[1] += f.accepts;
            s[2] += f.rejects;
            s[3] += f.acctResponses;
            s[4] += f.badAuthenticators;
            s[5] += f.lost;
            s[6] += f.unmatched;
            s[7] += f.inFlight();
        }
        return new Snapshot(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], driver.latencyMicros(50),
                driver.latencyMicros(99), driver.maxLatencyMicros(), driver.sending());
    }

    // ---- called by the flows, on the event loop -------------------------------------------

    /** Encodes the next subscriber's request with Identifier {@code id}; returns its code. */
    int encodeNext(ByteBuf out, int id, byte[] authOut, int off) {
        long c = cursor++;
        long i = c % config.subscribers();
        long msisdn = config.msisdnBase() + i;
        if (config.kind() == Kind.AUTH) {
            encoder.writeAccess(out, id, msisdn, config.framedHint() ? config.framedBase() + (int) i : 0, authOut, off);
            return RadiusCodes.ACCESS_REQUEST;
        }
        long pass = c / config.subscribers();
        int status = ACCT_CYCLE[(int) (pass % ACCT_CYCLE.length)];
        long sessionId = (pass / ACCT_CYCLE.length) << 32 | i;
        encoder.writeAccounting(out, id, msisdn, status, config.framedBase() + (int) i, sessionId, authOut, off);
        return RadiusCodes.ACCOUNTING_REQUEST;
    }

    /** Wraps a response for {@link #verifyResponse}; its code, or -1 when it does not decode. */
    int peekResponse(ByteBuf in) {
        return response.wrap(in) == null ? response.code() : -1;
    }

    /** Verifies the response last peeked against the request's authenticator at {@code auths[off..off+16)}. */
    boolean verifyResponse(int requestCode, byte[] auths, int off) {
        System.arraycopy(auths, off, requestAuth, 0, 16);
        if (!crypto.verifyResponse(response, requestAuth, config.secret())) {
            return false;
        }
        return !response.hasMessageAuthenticator()
                || crypto.verifyMessageAuthenticator(response, config.secret(), requestCode, requestAuth);
    }

    private record Settings(LoadShape load, Kind kind, RadiusSecret secret, byte[] password, long subscribers,
                            long msisdnBase, int framedBase, boolean messageAuthenticator, boolean framedHint) {
    }

    /**
     * Settings; defaults: auth, 8 sockets, 100 requests/s, window 32 (at most 256, the 8-bit
     * Identifier space), 100,000 subscribers from Calling-Station-Id 491700000000 and Framed-IP
     * 10.64.0.0, password "mclb-password", Message-Authenticator on, 1 s timeout. Target and secret
     * are required.
     */
    public static final class Builder extends LoadBuilder<Builder> {
        private Kind kind = Kind.AUTH;
        private RadiusSecret secret;
        private byte[] password = "mclb-password".getBytes(StandardCharsets.UTF_8);
        private long subscribers = 100_000;
        private long msisdnBase = 491_700_000_000L;
        private int framedBase = 0x0A400000;
        private boolean messageAuthenticator = true;
        private boolean framedHint;

        private Builder() {
            super(100, 32, 1024, RadiusClientFlow.SLOTS);
        }

        @Override
        protected Builder self() {
            return this;
        }

        public Builder kind(Kind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
            return this;
        }

        /** The secret shared with the target (required). */
        public Builder secret(RadiusSecret secret) {
            this.secret = Objects.requireNonNull(secret, "secret");
            return this;
        }

        /** User-Password sent in Access-Requests (UTF-8, 1..128 octets). */
        public Builder password(String password) {
            byte[] p = password.getBytes(StandardCharsets.UTF_8);
            if (p.length == 0 || p.length > 128) {
                throw new IllegalArgumentException("password must be 1..128 octets");
            }
            this.password = p;
            return this;
        }

        /** Distinct subscribers, used in turn; default 100,000. */
        public Builder subscribers(long n) {
            this.subscribers = requireRange("subscribers", n, 1, 1L << 30);
            return this;
        }

        /** First Calling-Station-Id as a number; default 491700000000. */
        public Builder msisdnBase(long base) {
            this.msisdnBase = requireRange("msisdnBase", base, 0, 999_999_999_999_999L);
            return this;
        }

        /** First Framed-IP-Address of accounting; subscriber i gets this + i; default 10.64.0.0. */
        public Builder framedBase(Inet4Address first) {
            byte[] a = first.getAddress();
            this.framedBase = (a[0] & 0xFF) << 24 | (a[1] & 0xFF) << 16 | (a[2] & 0xFF) << 8 | (a[3] & 0xFF);
            return this;
        }

        /** Add Message-Authenticator to every request; default true. */
        public Builder messageAuthenticator(boolean on) {
            this.messageAuthenticator = on;
            return this;
        }

        /**
         * Access-Requests carry subscriber i's Framed-IP-Address ({@link #framedBase} + i) as a hint
         * (RFC 2865 section 5.8), which the AAA simulator grants: a subscriber re-authenticates
         * with the address it has, so a long run keeps one framed-IP entry per subscriber in mclb's
         * sticky table. Without it every Accept brings the simulator's next pool address, and with
         * no Stop in an auth-only run the table grows by one framed-IP and one owner entry per
         * Accept for as long as the run lasts. Default false.
         */
        public Builder framedHint(boolean on) {
            this.framedHint = on;
            return this;
        }

        public RadiusLoadGenerator build() {
            LoadShape load = shape();
            if (secret == null) {
                throw new IllegalStateException("secret is required");
            }
            return new RadiusLoadGenerator(new Settings(load, kind, secret, password, subscribers, msisdnBase, framedBase,
                    messageAuthenticator, framedHint));
        }

        public RadiusLoadGenerator start() {
            return build().start();
        }
    }
}
