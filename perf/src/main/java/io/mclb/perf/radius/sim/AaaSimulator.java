package io.mclb.perf.radius.sim;

import io.mclb.perf.load.ReplyHandler;
import io.mclb.perf.load.UdpServer;
import io.mclb.perf.load.UdpSockets;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AAA (RADIUS) server simulator for tests and load: on its authentication sockets it answers
 * Access-Request with Access-Accept carrying a Framed-IP-Address from a pool (or Access-Reject for a
 * wrong User-Password or per the reject percentage), on every socket Accounting-Request with
 * Accounting-Response, and Status-Server (RFC 5997) with Access-Accept on authentication sockets and
 * Accounting-Response on accounting sockets. Every answer is signed with the shared secret (see
 * {@link AaaEngine} for the verification and signing rules). Failure modes: {@link AaaFailure},
 * a drop percentage, and a fixed latency (each response scheduled that long after its request).
 *
 * <p>Threading: all sockets share one event loop thread, which owns the codec state and writes the
 * counters; accessors may be called from any thread and see values at most one datagram old.
 */
public final class AaaSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AaaSimulator.class);

    private final UdpServer server = new UdpServer();
    private final AaaEngine engine;
    private final long latencyNanos;
    private final List<InetSocketAddress> authBound = new ArrayList<>();
    private final List<InetSocketAddress> acctBound = new ArrayList<>();

    private AaaSimulator(Builder b) {
        this.engine = new AaaEngine(b.secret, b.password, b.rejectPercent, b.dropPercent, b.failure, b.seed,
                b.poolBase, b.poolSize);
        this.latencyNanos = b.latencyNanos;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Authentication addresses actually bound (port 0 resolved), in the order given. */
    public List<InetSocketAddress> authAddresses() {
        return List.copyOf(authBound);
    }

    /** Accounting addresses actually bound (port 0 resolved), in the order given. */
    public List<InetSocketAddress> acctAddresses() {
        return List.copyOf(acctBound);
    }

    /** Well-formed requests received with this RADIUS code (0..255), unverifiable ones included. */
    public long received(int code) {
        return engine.received.get(code & 0xFF);
    }

    /** Responses sent with this RADIUS code. */
    public long sent(int code) {
        return engine.sent.get(code & 0xFF);
    }

    /** Requests dropped because their Request Authenticator or Message-Authenticator did not verify. */
    public long badAuthenticators() {
        return engine.badAuthenticators.get();
    }

    /** Access-Requests rejected because User-Password did not match the configured password. */
    public long badPasswords() {
        return engine.badPasswords.get();
    }

    /** Datagrams that did not decode as RADIUS. */
    public long malformed() {
        return engine.malformed.get();
    }

    /** Verified requests left unanswered on purpose (silent mode or drop percentage). */
    public long dropped() {
        return engine.dropped.get();
    }

    /** Well-formed requests of a code the simulator does not serve. */
    public long unhandled() {
        return engine.unhandled.get();
    }

    /** Closes the sockets and stops the loop; waits at most a few seconds. Idempotent. */
    @Override
    public void close() {
        server.close();
    }

    private AaaSimulator bind(List<InetSocketAddress> auth, List<InetSocketAddress> acct) {
        try {
            for (InetSocketAddress a : auth) {
                authBound.add(server.bind(a, new Handler(false)));
            }
            for (InetSocketAddress a : acct) {
                acctBound.add(server.bind(a, new Handler(true)));
            }
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked-style
            close();
            throw new IllegalStateException("cannot bind AAA simulator on " + auth + " / " + acct, e);
        }
        LOG.info("AAA simulator auth {} acct {} ({}), latency {} us", authBound, acctBound,
                UdpSockets.transportName(), latencyNanos / 1_000);
        return this;
    }

    /** One socket's handler; {@code accounting} decides how Status-Server is answered. */
    private final class Handler extends ReplyHandler {
        private final boolean accounting;

        Handler(boolean accounting) {
            super(latencyNanos, "AAA simulator");
            this.accounting = accounting;
        }

        @Override
        protected ByteBuf answer(ByteBuf request, ByteBufAllocator alloc) {
            return engine.handle(request, accounting, alloc);
        }
    }

    /**
     * Settings; defaults: accept any password, no rejects, no drops, no failure, no latency,
     * Framed-IP pool 10.64.0.0/10, seed 1. A secret and at least one address are required.
     */
    public static final class Builder {
        private final List<InetSocketAddress> auth = new ArrayList<>();
        private final List<InetSocketAddress> acct = new ArrayList<>();
        private RadiusSecret secret;
        private byte[] password;
        private int rejectPercent;
        private int dropPercent;
        private AaaFailure failure = AaaFailure.NONE;
        private long latencyNanos;
        private long seed = 1;
        private int poolBase = 0x0A400000;
        private int poolSize = 1 << 22;

        private Builder() {
        }

        /** Adds an authentication address (port 0 picks a free port). */
        public Builder listenAuth(InetSocketAddress address) {
            auth.add(Objects.requireNonNull(address, "address"));
            return this;
        }

        /** Adds an accounting address (port 0 picks a free port). */
        public Builder listenAcct(InetSocketAddress address) {
            acct.add(Objects.requireNonNull(address, "address"));
            return this;
        }

        /** The shared secret every client uses (required). */
        public Builder secret(RadiusSecret secret) {
            this.secret = Objects.requireNonNull(secret, "secret");
            return this;
        }

        /** The only User-Password accepted (UTF-8, 1..128 octets); null (default) accepts any. */
        public Builder password(String password) {
            if (password != null) {
                byte[] p = password.getBytes(StandardCharsets.UTF_8);
                if (p.length == 0 || p.length > UserPassword.MAX_LENGTH) {
                    throw new IllegalArgumentException("password must be 1..128 octets");
                }
                this.password = p;
            } else {
                this.password = null;
            }
            return this;
        }

        /** Share of correct Access-Requests answered with Access-Reject, 0..100; default 0. */
        public Builder rejectPercent(int percent) {
            this.rejectPercent = percent(percent, "rejectPercent");
            return this;
        }

        /** Share of verified requests left unanswered, 0..100; default 0. */
        public Builder dropPercent(int percent) {
            this.dropPercent = percent(percent, "dropPercent");
            return this;
        }

        public Builder failure(AaaFailure failure) {
            this.failure = Objects.requireNonNull(failure, "failure");
            return this;
        }

        /** Delay every response by this many microseconds (0..10 s); default 0. */
        public Builder latencyMicros(long micros) {
            if (micros < 0 || micros > 10_000_000) {
                throw new IllegalArgumentException("latency must be 0..10000000 us: " + micros);
            }
            this.latencyNanos = micros * 1_000;
            return this;
        }

        /** Seed of the reject and drop draws; default 1. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Framed-IP-Address pool: {@code size} addresses from {@code first}, handed out round robin. */
        public Builder framedPool(Inet4Address first, int size) {
            if (size < 1) {
                throw new IllegalArgumentException("pool size must be positive: " + size);
            }
            byte[] a = first.getAddress();
            this.poolBase = (a[0] & 0xFF) << 24 | (a[1] & 0xFF) << 16 | (a[2] & 0xFF) << 8 | (a[3] & 0xFF);
            this.poolSize = size;
            return this;
        }

        /** Framed-IP-Address pool as IPv4 CIDR, e.g. {@code 10.64.0.0/10} (prefix 1..32, at most 2^30 addresses). */
        public Builder framedPool(String cidr) {
            int slash = cidr.indexOf('/');
            try {
                int prefix = slash < 0 ? 32 : Integer.parseInt(cidr.substring(slash + 1).trim());
                if (prefix < 2 || prefix > 32) {
                    throw new IllegalArgumentException("framed pool prefix must be 2..32: " + cidr);
                }
                InetAddress base = InetAddress.getByName(slash < 0 ? cidr.trim() : cidr.substring(0, slash).trim());
                if (!(base instanceof Inet4Address v4)) {
                    throw new IllegalArgumentException("framed pool must be IPv4: " + cidr);
                }
                return framedPool(v4, 1 << (32 - prefix));
            } catch (NumberFormatException | UnknownHostException e) {
                throw new IllegalArgumentException("bad framed pool '" + cidr + "' (want A.B.C.D/LEN)", e);
            }
        }

        /**
         * Binds every address and starts answering.
         *
         * @throws IllegalStateException without a secret or an address, or if a socket cannot be bound
         */
        public AaaSimulator start() {
            if (secret == null) {
                throw new IllegalStateException("an AAA simulator needs a shared secret");
            }
            if (auth.isEmpty() && acct.isEmpty()) {
                throw new IllegalStateException("an AAA simulator needs at least one listen address");
            }
            return new AaaSimulator(this).bind(List.copyOf(auth), List.copyOf(acct));
        }

        private static int percent(int p, String name) {
            if (p < 0 || p > 100) {
                throw new IllegalArgumentException(name + " must be 0..100: " + p);
            }
            return p;
        }
    }
}
