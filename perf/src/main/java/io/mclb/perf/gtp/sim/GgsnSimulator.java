package io.mclb.perf.gtp.sim;

import io.mclb.perf.load.ReplyHandler;
import io.mclb.perf.load.UdpServer;
import io.mclb.perf.load.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A GGSN/PGW simulator for tests and load: answers GTPv0/v1/v2 Echo, Create PDP Context /
 * Create Session and Delete PDP Context / Delete Session on every address it binds (the version is
 * taken from each datagram, so one socket serves v1 and v2 on a 2123-style port and v0 on a
 * 3386-style port alike).
 *
 * <p>Behaviour: responses copy the request's sequence number and go to its source address:port;
 * Create responses carry a cause drawn from a seeded {@link CauseMix} (v2 by default the v1 mix
 * mapped with {@link CauseMix#toV2()}), and when accepted a new TEID-C / TEID-data (v0: flow
 * labels), the simulator's bound address as GSN Address / F-TEID, an IPv4 End User Address / PAA
 * from a pool, and the Recovery IE. A Delete for a known session answers accepted and removes it;
 * an unknown TEID (v0: TID) answers "context not found" (210 / 64); v1 Update PDP Context and v2
 * Modify Bearer answer accepted or "context not found" the same way. A v1/v2 session lives at the
 * bound address that created it: a follow-up with its TEID sent to another address of the same
 * simulator is "context not found", as between real GGSNs. {@link #restart()} increments
 * the restart counter and forgets every session, as a rebooted GGSN does. With a latency set, each
 * response is scheduled that long after the request on the event loop.
 *
 * <p>Threading: all sockets share one event loop thread, which owns the sessions and writes the
 * counters; accessors may be called from any thread and see values at most one datagram old.
 */
public final class GgsnSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GgsnSimulator.class);

    private final UdpServer server = new UdpServer();
    private final GgsnEngine engine;
    private final long latencyNanos;
    private final List<InetSocketAddress> bound = new ArrayList<>();

    private GgsnSimulator(Builder b) {
        CauseMix v2 = b.causeMixV2 != null ? b.causeMixV2 : b.causeMix.toV2();
        this.engine = new GgsnEngine(b.causeMix, v2, b.seed, b.recovery, b.poolBase, b.poolSize, b.expectedSessions);
        this.latencyNanos = b.latencyNanos;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The addresses actually bound (port 0 resolved), in the order given. */
    public List<InetSocketAddress> boundAddresses() {
        return List.copyOf(bound);
    }

    /** The current restart counter (0..255) sent in every Recovery IE. */
    public int recovery() {
        return engine.recovery;
    }

    /** Simulates a reboot: restart counter + 1 (mod 256) and every session forgotten. */
    public void restart() {
        engine.recovery = (engine.recovery + 1) & 0xFF;
        server.loop().execute(engine::clearSessions);
    }

    /** Requests received of {@code messageType} for GTP {@code version} (0, 1, 2), malformed ones excluded. */
    public long received(int version, int messageType) {
        return engine.received.get(index(version, messageType));
    }

    /** Create responses sent with {@code cause} for GTP {@code version}. */
    public long createResponses(int version, int cause) {
        return engine.createCauses.get(index(version, cause));
    }

    /** Delete requests answered "context not found". */
    public long deletesNotFound() {
        return engine.deletesNotFound.get();
    }

    /** Datagrams dropped because they did not decode (bad version, header, length or IE). */
    public long malformed() {
        return engine.malformed.get();
    }

    /** Well-formed messages of a type the simulator does not answer. */
    public long unhandled() {
        return engine.unhandled.get();
    }

    /** Sessions currently open over all versions. */
    public long activeSessions() {
        return engine.activeSessions.get();
    }

    /** Closes the sockets and stops the loop; waits at most a few seconds. Idempotent. */
    @Override
    public void close() {
        server.close();
    }

    private static int index(int version, int value) {
        if (version < 0 || version > 2 || value < 0 || value > 255) {
            throw new IllegalArgumentException("version 0..2 and value 0..255: " + version + ", " + value);
        }
        return version * 256 + value;
    }

    private GgsnSimulator bind(List<InetSocketAddress> addresses) {
        try {
            for (InetSocketAddress address : addresses) {
                bound.add(server.bind(address, new Handler(address.getAddress())));
            }
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked-style
            close();
            throw new IllegalStateException("cannot bind GGSN simulator on " + addresses, e);
        }
        LOG.info("GGSN simulator on {} ({}), recovery {}, latency {} us", bound, UdpSockets.transportName(),
                engine.recovery, latencyNanos / 1_000);
        return this;
    }

    /** One socket's handler; the address it advertises in GSN Address / F-TEID IEs is its bound one. */
    private final class Handler extends ReplyHandler {
        private final byte[] ownAddress;

        Handler(InetAddress address) {
            super(latencyNanos, "GGSN simulator");
            this.ownAddress = address.getAddress();
        }

        @Override
        protected ByteBuf answer(ByteBuf request, ByteBufAllocator alloc) {
            return engine.handle(request, ownAddress, alloc);
        }
    }

    /** Settings; defaults: cause 128 always, recovery 1, no latency, pool 10.45.0.0/16, seed 1. */
    public static final class Builder {
        private final List<InetSocketAddress> listen = new ArrayList<>();
        private CauseMix causeMix = CauseMix.fixed(128);
        private CauseMix causeMixV2;
        private long latencyNanos;
        private int recovery = 1;
        private long seed = 1;
        private int poolBase = 0x0A2D0000;
        private int poolSize = 1 << 16;
        private int expectedSessions = 1 << 16;

        private Builder() {
        }

        /** Adds an address to answer on (port 0 picks a free port). At least one is required. */
        public Builder listen(InetSocketAddress address) {
            listen.add(Objects.requireNonNull(address, "address"));
            return this;
        }

        /** v0/v1 Create causes (and, unless {@link #causeMixV2} is set, v2 ones via {@link CauseMix#toV2()}). */
        public Builder causeMix(CauseMix mix) {
            this.causeMix = Objects.requireNonNull(mix, "mix");
            return this;
        }

        /** v2 Create Session causes, overriding the mapped v1 mix. */
        public Builder causeMixV2(CauseMix mix) {
            this.causeMixV2 = mix;
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

        /** Initial restart counter (0..255); default 1. */
        public Builder recovery(int recovery) {
            if (recovery < 0 || recovery > 255) {
                throw new IllegalArgumentException("recovery must be 0..255: " + recovery);
            }
            this.recovery = recovery;
            return this;
        }

        /** Seed of the cause-mix draws; default 1. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** IPv4 pool for End User Address / PAA: {@code size} addresses from {@code first}, handed out round robin. */
        public Builder addressPool(Inet4Address first, int size) {
            byte[] a = first.getAddress();
            this.poolBase = (a[0] & 0xFF) << 24 | (a[1] & 0xFF) << 16 | (a[2] & 0xFF) << 8 | (a[3] & 0xFF);
            if (size < 1) {
                throw new IllegalArgumentException("pool size must be positive: " + size);
            }
            this.poolSize = size;
            return this;
        }

        /** Initial capacity of the session tables (they grow); default 65536. */
        public Builder expectedSessions(int n) {
            this.expectedSessions = Math.max(16, n);
            return this;
        }

        /**
         * Binds every address and starts answering.
         *
         * @throws IllegalStateException if no address was given or a socket cannot be bound
         */
        public GgsnSimulator start() {
            if (listen.isEmpty()) {
                throw new IllegalStateException("a simulator needs at least one listen address");
            }
            return new GgsnSimulator(this).bind(List.copyOf(listen));
        }
    }
}
