package io.mclb.vserver;

import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.metrics.MetricNames;
import io.mclb.metrics.VserverMetrics;
import io.mclb.net.BindFailures;
import io.mclb.net.Transports;
import io.mclb.sticky.StickyTable;
import io.mclb.net.UdpSockets;
import io.mclb.select.RealSelector;
import io.mclb.select.SubscriberClaims;
import io.mclb.service.ServingGate;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * One virtual server at run time: the listener sockets (one per event loop, SO_REUSEPORT, so the
 * kernel spreads clients over loops and a client always reaches the same loop), the relay of each
 * loop, and the {@link VserverSnapshot} the relays read per datagram. A reload swaps the snapshot;
 * a change of address, port or service re-creates the listeners.
 */
public final class VirtualServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualServer.class);

    /** Largest datagram relayed; larger ones are dropped as {@code oversized}. */
    public static final int MAX_DATAGRAM = UdpSockets.MAX_DATAGRAM;

    private final String name;
    private final NanoClock clock;
    private final StickyTable stickyTable;
    private final ServingGate gate;
    private final LongFunction<RealServer> directory;
    private final SubscriberClaims claims;
    private final VserverMetrics metrics;
    private final AtomicLong flowsActive = new AtomicLong();
    /** Sum of the relays' transaction tables; each relay publishes its size by delta, per read batch. */
    private final AtomicLong transactionsActive = new AtomicLong();
    private final ConcurrentHashMap<RealServer, Counter> realRequests = new ConcurrentHashMap<>();
    private final List<Relay> relays = new ArrayList<>();
    private volatile VserverSnapshot snapshot;

    /**
     * @param directory every real of the running balancer by id (sticky entries name reals of other farms)
     * @param claims    the runtime's new-subscriber claims, shared by every virtual server
     */
    public VirtualServer(VserverSnapshot snapshot, NanoClock clock, StickyTable stickyTable, ServingGate gate,
                         MeterRegistry registry, LongFunction<RealServer> directory, SubscriberClaims claims) {
        this.name = snapshot.config().name();
        this.directory = directory;
        this.claims = claims;
        this.snapshot = snapshot;
        this.clock = clock;
        this.stickyTable = stickyTable;
        this.gate = gate;
        this.metrics = new VserverMetrics(registry, name);
        metrics.keep(Gauge.builder(MetricNames.FLOWS_ACTIVE, flowsActive, AtomicLong::get)
                .description("Plain UDP flows currently tracked").tag("vserver", name).register(registry));
        metrics.keep(Gauge.builder(MetricNames.TRANSACTIONS_ACTIVE, transactionsActive, AtomicLong::get)
                .description("Transactions tracked: requests in flight and answered ones lingering for retransmissions")
                .tag("vserver", name).register(registry));
        for (VserverState st : VserverState.values()) {
            metrics.keep(Gauge.builder(MetricNames.VSERVER_STATE, this, v -> v.state() == st ? 1 : 0)
                    .description("1 for the virtual server's current state").tag("vserver", name)
                    .tag("state", st.name()).register(registry));
        }
        metrics.keep(Gauge.builder(MetricNames.VSERVER_SERVICEABLE, this, v -> v.serviceable() ? 1 : 0)
                .description("1 while the virtual server is in service, HA-active and has a real up")
                .tag("vserver", name).register(registry));
        countRealRequestsOf(snapshot);
    }

    /** The per-real request counters of the farms' reals exist from the start (at 0), not from their first request. */
    private void countRealRequestsOf(VserverSnapshot s) {
        for (RealServer r : s.farm().reals()) {
            realRequests(r);
        }
        if (s.backup() != null) {
            for (RealServer r : s.backup().reals()) {
                realRequests(r);
            }
        }
    }

    /**
     * Binds one listener per event loop and installs the relay each loop runs.
     *
     * @param relayFactory builds the relay of one loop (flows for plain UDP, transactions for a service)
     */
    public void start(EventLoopGroup group, Function<EventLoop, Relay> relayFactory) throws InterruptedException {
        VirtualServerConfig c = snapshot.config();
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor e : group) {
            loops.add((EventLoop) e);
            if (!UdpSockets.reusePort()) {
                break; // NIO has no SO_REUSEPORT: one listener, on one loop
            }
        }
        // an all-ports virtual server has a relay per port and loop: each answers on its own port
        for (int port : c.listenPorts()) {
            InetSocketAddress vip = new InetSocketAddress(c.address(), port);
            // SO_REUSEPORT would let a second mclb (same user) bind this port too and take half the
            // traffic. Not for an HA group's virtual server: both nodes of a pair may share a host
            // (tests, a lab), and which one serves is the group's decision, not the socket's.
            if (c.standbyGroup() == null) {
                try {
                    UdpSockets.requireNoOtherOwner(vip);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(BindFailures.explainVip(name, c.address(), port, e), e);
                }
            }
            for (EventLoop loop : loops) {
                Relay relay = relayFactory.apply(loop);
                synchronized (relays) {
                    relays.add(relay);
                }
                Channel ch;
                try {
                    ch = UdpSockets.listener(c.address()).group(loop).handler(relay.handler()).bind(vip).sync()
                            .channel();
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) { // Netty rethrows the bind's IOException undeclared
                    throw new IllegalStateException(BindFailures.explainVip(name, c.address(), port, e), e);
                }
                LOG.debug("vserver {} listening on {} ({})", name, ch.localAddress(), loop);
                warnIfBufferCapped(ch);
            }
            LOG.info("vserver {} listening on {} with {} socket(s), {} transport", name, vip, loops.size(),
                    Transports.active().keyword());
        }
    }

    private static final java.util.concurrent.atomic.AtomicBoolean BUFFER_WARNED = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The kernel silently caps SO_RCVBUF at net.core.rmem_max (212992 on a default Debian host,
     * a tenth of what mclb asks for): say so once, since bursts are then dropped in the kernel.
     */
    private static void warnIfBufferCapped(Channel ch) {
        try {
            int got = ch.config().getOption(ChannelOption.SO_RCVBUF);
            // Linux reports twice the size set (bookkeeping overhead)
            if (got > 0 && got < UdpSockets.SOCKET_BUFFER_BYTES && BUFFER_WARNED.compareAndSet(false, true)) {
                LOG.warn("UDP receive buffers are capped at {} bytes (asked for {}): raise the limit with "
                        + "'sysctl -w net.core.rmem_max={}' so bursts are not dropped in the kernel", got,
                        UdpSockets.SOCKET_BUFFER_BYTES, UdpSockets.SOCKET_BUFFER_BYTES);
            }
        } catch (RuntimeException e) {
            LOG.debug("cannot read SO_RCVBUF: {}", e.toString());
        }
    }

    /**
     * The relays listening on {@code port} (one per event loop), in the same order for every
     * caller: for a datagram that belongs to another loop's state (an answer to a request that
     * left from that loop's socket, while the kernel hashes the answerer to this one).
     */
    public List<Relay> relaysOnPort(int port) {
        List<Relay> out = new ArrayList<>();
        synchronized (relays) {
            for (Relay r : relays) {
                if (r.vipPort() == port) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** Plain UDP flows: the relay for one loop. */
    public Relay newFlowRelay(EventLoop loop) {
        return new FlowRelay(this, loop);
    }

    /** The "choose a real" step for one relay (its own scratch flyweights over the shared tables). */
    public RealSelector newSelector() {
        return new RealSelector(stickyTable, directory, claims);
    }

    public String name() {
        return name;
    }

    public NanoClock clock() {
        return clock;
    }

    public StickyTable stickyTable() {
        return stickyTable;
    }

    public VserverMetrics metrics() {
        return metrics;
    }

    public VserverSnapshot snapshot() {
        return snapshot;
    }

    /** Reload: the relays read the new configuration and farms from their next datagram on. */
    public void update(VserverSnapshot next) {
        countRealRequestsOf(next);
        this.snapshot = next;
    }

    /** Transactions tracked now, summed over loops (published by the relays, per read batch). */
    public AtomicLong transactionsActive() {
        return transactionsActive;
    }

    public AtomicLong flowsActive() {
        return flowsActive;
    }

    /** Whether datagrams are served now: in service, and active in its HA group if it has one. */
    public boolean serving() {
        VirtualServerConfig c = snapshot.config();
        return c.inService() && (c.standbyGroup() == null || gate.isActive(c.standbyGroup()));
    }

    public VserverState state() {
        VirtualServerConfig c = snapshot.config();
        if (!c.inService()) {
            return VserverState.OUTOFSERVICE;
        }
        if (!serving()) {
            return VserverState.STANDBY;
        }
        return anyRealUp() ? VserverState.OPERATIONAL : VserverState.ALL_REALS_DOWN;
    }

    /**
     * Whether a real of the farm (or, when it has none of its own, the reals a route map points
     * at) or of the backup farm is up: OPERATIONAL, or only full for now (MAXCONNS, MAXCLIENTS).
     */
    public boolean anyRealUp() {
        VserverSnapshot s = snapshot;
        return anyUp(s.farm().reals()) || (s.backup() != null && anyUp(s.backup().reals()));
    }

    private static boolean anyUp(RealServer[] reals) {
        for (RealServer r : reals) {
            RealState st = r.state();
            // DFP_THROTTLED takes no new subscriber but still serves its own (as KAL-AP counts it up)
            if (st == RealState.OPERATIONAL || st == RealState.MAXCONNS || st == RealState.MAXCLIENTS
                    || st == RealState.DFP_THROTTLED) {
                return true;
            }
        }
        return false;
    }

    /** In service, HA-active where HA is configured, and a real up: what {@code advertise active} advertises. */
    public boolean serviceable() {
        return serving() && anyRealUp();
    }

    /**
     * The sticky group of this virtual server's table: the configured group, or for a virtual
     * server without one its own table, numbered above the configurable range (1..32767).
     */
    public int stickyGroup() {
        VirtualServerConfig c = snapshot.config();
        if (c.sticky() != null && c.sticky().group() != 0) {
            return c.sticky().group();
        }
        return ownGroup(name);
    }

    public static int ownGroup(String vserverName) {
        byte[] b = vserverName.getBytes(StandardCharsets.UTF_8);
        return 0x8000 | (int) (io.mclb.sticky.Hashing.murmur64(b, 0, b.length, 7) & 0x7fff);
    }

    /**
     * Where datagrams for a real go: its own port, or the port the request came in on (the
     * virtual server's, or for an all-ports one the port of that listener: GTPv0 to 3386).
     */
    public InetSocketAddress targetOf(RealServer real, int listenPort) {
        int port = real.port() != 0 ? real.port() : listenPort;
        return new InetSocketAddress(real.address(), port);
    }

    /** The per-real request counter of this virtual server; resolved per new flow and per request sent. */
    public Counter realRequests(RealServer real) {
        Counter c = realRequests.get(real); // the capturing lambda below would be allocated per request
        return c != null ? c : realRequests.computeIfAbsent(real, r -> metrics.realRequests(r.farmName(), r.label()));
    }

    /**
     * {@code show conns}: at most {@code limit} connections of every loop whose client
     * {@code wanted} accepts, each loop listing its own (from the admin thread, never the data path).
     */
    public List<Connection> connections(java.util.function.Predicate<InetSocketAddress> wanted, int limit) {
        List<Relay> copy;
        synchronized (relays) {
            copy = new ArrayList<>(relays);
        }
        List<Connection> all = new ArrayList<>();
        for (Relay r : copy) {
            if (all.size() >= limit) {
                break;
            }
            all.addAll(r.connections(wanted, limit - all.size()));
        }
        return all;
    }

    /** Plain UDP flows tracked now, summed over loops. */
    public long flows() {
        return flowsActive.get();
    }

    /** Closes listeners and relays (each on its own loop) and removes this server's meters. */
    @Override
    public void close() {
        List<Relay> copy;
        synchronized (relays) {
            copy = new ArrayList<>(relays);
            relays.clear();
        }
        CountDownLatch done = new CountDownLatch(copy.size());
        for (Relay r : copy) {
            r.loop().execute(() -> {
                try {
                    r.close();
                } finally {
                    done.countDown();
                }
            });
        }
        try {
            if (!done.await(5, TimeUnit.SECONDS)) {
                LOG.warn("vserver {}: relays did not close within 5 s", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        metrics.close();
    }
}
