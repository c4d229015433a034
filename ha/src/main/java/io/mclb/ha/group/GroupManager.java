package io.mclb.ha.group;

import io.mclb.ha.vip.VirtualAddressControl;
import io.mclb.time.NanoClock;
import io.mclb.service.ServingGate;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Runs the configured groups: one thread ({@code mclb-ha}) with a selector over the hello sockets,
 * ticking every group at a fifth of its hello period; moves the virtual address on each transition
 * through {@link VirtualAddressControl}; answers {@link ServingGate#isActive} for the data path.
 *
 * <p>Sockets: per group address, one UDP socket bound to {@code address:port} (unicast hellos to each
 * {@code standby G peer}, and multicast to 224.0.0.102 (v2) / 224.0.0.2 (v1) on the interface when
 * the interface supports multicast); per interface, one socket bound to the multicast group; while
 * active, one bound to {@code vip:port}, which answers the split-brain PROBE.
 *
 * <p>A message is refused and counted (and changes nothing) when malformed, badly authenticated,
 * for an unknown group, from an unknown peer (not a configured peer, or when none is configured not
 * on the interface's subnet, or its claimed address differs from the datagram's source, except a probe
 * reply from the virtual address), or replayed
 * (boot id older than the last seen, or same boot and a sequence not above the last; an equal
 * sequence is the multicast/unicast duplicate and is dropped silently).
 *
 * <p>Group state is confined to the {@code mclb-ha} thread; operator actions are queued to it.
 */
public final class GroupManager implements ServingGate, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupManager.class);
    public static final int DEFAULT_PORT = 1985;

    private final Map<String, StandbyGroup> byName = new LinkedHashMap<>();
    private final Map<Integer, List<StandbyGroup>> byNumber = new HashMap<>();
    /** Replaced by {@link #reconfigure} on the {@code mclb-ha} thread. */
    private final Map<StandbyGroup, HelloCodec> codecs = new ConcurrentHashMap<>();
    private final Map<StandbyGroup, DatagramChannel> unicast = new HashMap<>();
    private final Map<StandbyGroup, InetSocketAddress> multicastDest = new HashMap<>();
    private final Map<StandbyGroup, DatagramChannel> vipSockets = new HashMap<>();
    private final Map<String, long[]> lastSeen = new HashMap<>();
    private final List<DatagramChannel> channels = new ArrayList<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final VirtualAddressControl vips;
    private final HaMetrics metrics;
    private final NanoClock clock;
    private final int port;
    private volatile long tickMs;
    private final ByteBuffer rx = ByteBuffer.allocate(512);
    private Selector selector;
    private Thread thread;
    private volatile boolean running;
    private volatile boolean dropHellos;
    /** Told of every transition, after the address has been acquired or released; copy-on-write. */
    private final List<StateListener> stateListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Told of each group state change, on the {@code mclb-ha} thread after the virtual address was
     * acquired (to Active) or released (from Active): must not block (hand slow work to a thread of
     * its own) and must not throw.
     */
    @FunctionalInterface
    public interface StateListener {
        void stateChanged(StandbyGroup group, HsrpState from, HsrpState to);
    }

    public GroupManager(List<GroupConfig> configs, VirtualAddressControl vips, LinkState links, MeterRegistry registry,
                        NanoClock clock, int port) {
        this.vips = vips;
        this.metrics = new HaMetrics(registry);
        this.clock = clock;
        this.port = port;
        long bootId = clock.epochMillis();
        StandbyGroup.Outbox outbox = new Outbox();
        for (GroupConfig c : configs) {
            StandbyGroup g = new StandbyGroup(c, links, bootId, outbox);
            byName.put(c.name(), g);
            byNumber.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(g);
            codecs.put(g, new HelloCodec(c.key()));
            metrics.registerState(g);
        }
        this.tickMs = tickFor(configs);
    }

    /**
     * Applies a reloaded configuration to the running groups: a group with the same identity
     * ({@link GroupConfig#sameIdentity}) takes its new priority, preempt, timers, key, tracks and
     * peers on the {@code mclb-ha} thread, without leaving its state. Groups added or removed, or
     * whose interface, address, number, name or virtual address changed, need a restart: they are
     * left as they run and returned as messages.
     *
     * @return one line per change that was not applied; empty when everything was
     */
    public List<String> reconfigure(List<GroupConfig> next) {
        List<String> notApplied = new ArrayList<>();
        Map<StandbyGroup, GroupConfig> apply = new LinkedHashMap<>();
        for (GroupConfig c : next) {
            StandbyGroup g = byName.get(c.name());
            if (g == null) {
                notApplied.add("HA group " + c.name() + " is new: it starts after a restart of mclb");
            } else if (!g.config().sameIdentity(c)) {
                notApplied.add("HA group " + c.name() + ": interface, address, group number or virtual address "
                        + "changed: that takes effect after a restart of mclb");
            } else if (!g.config().equals(c)) {
                apply.put(g, c);
            }
        }
        for (String name : byName.keySet()) {
            if (next.stream().noneMatch(c -> c.name().equals(name))) {
                notApplied.add("HA group " + name + " was removed: it runs until a restart of mclb");
            }
        }
        if (!apply.isEmpty()) {
            submit(() -> {
                long now = clock.nanoTime();
                apply.forEach((g, c) -> {
                    codecs.put(g, new HelloCodec(c.key()));
                    g.reconfigure(c, now);
                });
                tickMs = tickFor(byName.values().stream().map(StandbyGroup::config).toList());
            });
        }
        return notApplied;
    }

    private static long tickFor(List<GroupConfig> configs) {
        int minHello = configs.stream().mapToInt(GroupConfig::helloMs).min().orElse(Integer.MAX_VALUE);
        return Math.max(1, Math.min(50, minHello / 5));
    }

    /** Removes virtual addresses a crashed predecessor may have left, opens the sockets, starts the groups. */
    public synchronized void start() throws IOException {
        selector = Selector.open();
        for (StandbyGroup g : byName.values()) {
            GroupConfig c = g.config();
            if (c.vip() != null) {
                vips.release(c.iface(), c.vip(), c.prefix());
            }
            DatagramChannel ch = open(c.address(), new InetSocketAddress(c.address(), port));
            unicast.put(g, ch);
            multicast(g, ch);
        }
        running = true;
        long now = clock.nanoTime();
        for (StandbyGroup g : byName.values()) {
            g.start(now);
        }
        thread = new Thread(this::loop, "mclb-ha");
        thread.setDaemon(true);
        thread.start();
    }

    private DatagramChannel open(InetAddress family, InetSocketAddress bind) throws IOException {
        DatagramChannel ch = DatagramChannel.open(family instanceof Inet4Address ? StandardProtocolFamily.INET
                : StandardProtocolFamily.INET6);
        ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        ch.bind(bind);
        ch.configureBlocking(false);
        ch.register(selector, SelectionKey.OP_READ);
        channels.add(ch);
        return ch;
    }

    private void multicast(StandbyGroup g, DatagramChannel unicastCh) {
        GroupConfig c = g.config();
        if (!(c.address() instanceof Inet4Address)) {
            return;
        }
        try {
            NetworkInterface ni = NetworkInterface.getByName(c.iface());
            if (ni == null || !ni.supportsMulticast() || !ni.isUp()) {
                LOG.info("group {}: interface {} has no multicast, unicast hellos only", c.name(), c.iface());
                return;
            }
            InetAddress grp = InetAddress.getByName(c.version() == 1 ? "224.0.0.2" : "224.0.0.102");
            unicastCh.setOption(StandardSocketOptions.IP_MULTICAST_IF, ni);
            unicastCh.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            unicastCh.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
            boolean joined = channels.stream().anyMatch(x -> x.isRegistered() && sameMulticast(x, grp));
            if (!joined) {
                DatagramChannel m = open(c.address(), new InetSocketAddress(grp, port));
                m.join(grp, ni);
            }
            multicastDest.put(g, new InetSocketAddress(grp, port));
        } catch (IOException e) {
            LOG.warn("group {}: multicast hellos on {} unavailable ({}), unicast only", c.name(), c.iface(),
                    e.toString());
        }
    }

    private static boolean sameMulticast(DatagramChannel ch, InetAddress grp) {
        try {
            return ch.getLocalAddress() instanceof InetSocketAddress a && a.getAddress().equals(grp);
        } catch (IOException e) {
            return false;
        }
    }

    private void loop() {
        while (running) {
            try {
                Runnable t;
                while ((t = tasks.poll()) != null) {
                    t.run();
                }
                long now = clock.nanoTime();
                for (StandbyGroup g : byName.values()) {
                    g.tick(now);
                }
                selector.select(tickMs);
                for (SelectionKey k : selector.selectedKeys()) {
                    if (k.isValid() && k.isReadable()) {
                        drain((DatagramChannel) k.channel());
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException | RuntimeException e) {
                LOG.warn("HA loop error", e);
            }
        }
    }

    private void drain(DatagramChannel ch) throws IOException {
        for (int i = 0; i < 64; i++) {
            rx.clear();
            InetSocketAddress from = (InetSocketAddress) ch.receive(rx);
            if (from == null) {
                return;
            }
            received(ch, from, rx.array(), rx.position());
        }
    }

    void received(DatagramChannel ch, InetSocketAddress from, byte[] buf, int len) {
        if (len < 8 || buf[0] != 'M' || buf[1] != 'H') {
            metrics.refused(HelloCodec.Refusal.MALFORMED);
            return;
        }
        List<StandbyGroup> candidates = byNumber.get(((buf[4] & 0xff) << 8) | (buf[5] & 0xff));
        if (candidates == null) {
            metrics.refused(HelloCodec.Refusal.UNKNOWN_GROUP);
            return;
        }
        StandbyGroup g = candidates.get(0);
        HelloCodec.Decoded d = codecs.get(g).decode(buf, len);
        if (d.refusal() != null) {
            metrics.refused(d.refusal());
            return;
        }
        Hello h = d.hello();
        if (h.sender().equals(g.config().address())) {
            return; // our own multicast looped back
        }
        // a probe reply may come from the virtual address: the owner answers on its VIP socket
        boolean viaVip = h.type() == Hello.Type.PROBE_REPLY && from.getAddress().equals(g.vip());
        if ((!viaVip && !h.sender().equals(from.getAddress())) || !knownPeer(g.config(), h.sender())) {
            metrics.refused(HelloCodec.Refusal.UNKNOWN_PEER);
            return;
        }
        long[] seen = lastSeen.computeIfAbsent(g.config().name() + "/" + h.sender().getHostAddress(),
                k -> new long[] {Long.MIN_VALUE, Long.MIN_VALUE});
        if (h.bootId() < seen[0] || (h.bootId() == seen[0] && h.sequence() < seen[1])) {
            metrics.refused(HelloCodec.Refusal.REPLAY);
            return;
        }
        if (h.bootId() == seen[0] && h.sequence() == seen[1]) {
            return; // the same hello by multicast and unicast
        }
        seen[0] = h.bootId();
        seen[1] = h.sequence();
        long now = clock.nanoTime();
        switch (h.type()) {
            case HELLO, RESIGN -> {
                if (dropHellos) {
                    return;
                }
                metrics.received(g.config().name());
                g.onHello(h, now);
            }
            case PROBE -> send(ch, g, g.probeReply(now), from);
            case PROBE_REPLY -> g.onProbeReply(h, now);
            default -> {
            }
        }
    }

    private static boolean knownPeer(GroupConfig c, InetAddress sender) {
        if (!c.peers().isEmpty()) {
            return c.peers().contains(sender);
        }
        byte[] a = c.address().getAddress();
        byte[] b = sender.getAddress();
        if (a.length != b.length) {
            return false;
        }
        for (int bit = 0; bit < c.prefix(); bit++) {
            int m = 0x80 >> (bit % 8);
            if ((a[bit / 8] & m) != (b[bit / 8] & m)) {
                return false;
            }
        }
        return true;
    }

    private void send(DatagramChannel ch, StandbyGroup g, Hello h, InetSocketAddress to) {
        try {
            ch.send(ByteBuffer.wrap(codecs.get(g).encode(h)), to);
        } catch (IOException e) {
            LOG.debug("group {}: send to {} failed: {}", g.config().name(), to, e.toString());
        }
    }

    private final class Outbox implements StandbyGroup.Outbox {
        @Override
        public void send(Hello h) {
            StandbyGroup g = group(h);
            DatagramChannel ch = unicast.get(g);
            for (InetAddress p : g.config().peers()) {
                GroupManager.this.send(ch, g, h, new InetSocketAddress(p, port));
            }
            InetSocketAddress m = multicastDest.get(g);
            if (m != null) {
                GroupManager.this.send(ch, g, h, m);
            }
        }

        @Override
        public void probe(Hello probe) {
            StandbyGroup g = group(probe);
            if (g.vip() != null) {
                GroupManager.this.send(unicast.get(g), g, probe, new InetSocketAddress(g.vip(), port));
            }
            send(probe);
        }

        @Override
        public void transitioned(StandbyGroup g, HsrpState from, HsrpState to, String reason, long nowNs) {
            GroupConfig c = g.config();
            LOG.info("group {} ({} on {}): {} -> {}: {}", c.name(), c.group(), c.iface(), from.label(), to.label(),
                    reason);
            metrics.transition(c.name(), to);
            if (to == HsrpState.ACTIVE && g.vip() != null) {
                vips.acquire(c.iface(), g.vip(), c.prefix());
                openVipSocket(g);
            } else if (from == HsrpState.ACTIVE && g.vip() != null) {
                closeVipSocket(g);
                vips.release(c.iface(), g.vip(), c.prefix());
            }
            for (StateListener l : stateListeners) {
                try {
                    l.stateChanged(g, from, to);
                } catch (RuntimeException e) {
                    LOG.warn("group {}: state listener failed", c.name(), e);
                }
            }
        }

        @Override
        public void withheld(StandbyGroup g, String reason) {
            metrics.withheld(g.config().name(), reason);
        }

        private StandbyGroup group(Hello h) {
            for (StandbyGroup g : byNumber.get(h.group())) {
                if (g.config().address().equals(h.sender())) {
                    return g;
                }
            }
            throw new IllegalStateException("no group " + h.group() + " for " + h.sender());
        }
    }

    private void openVipSocket(StandbyGroup g) {
        try {
            vipSockets.put(g, open(g.vip(), new InetSocketAddress(g.vip(), port)));
        } catch (IOException e) {
            LOG.warn("group {}: cannot bind {}:{} to answer takeover probes: {}", g.config().name(),
                    g.vip().getHostAddress(), port, e.toString());
        }
    }

    private void closeVipSocket(StandbyGroup g) {
        DatagramChannel ch = vipSockets.remove(g);
        if (ch != null) {
            channels.remove(ch);
            try {
                ch.close();
            } catch (IOException e) {
                LOG.debug("closing the probe socket failed", e);
            }
        }
    }

    /** Serving gate for {@code inservice standby NAME}: the named group is active on this node. */
    @Override
    public boolean isActive(String standbyGroup) {
        StandbyGroup g = byName.get(standbyGroup);
        return g != null && g.state() == HsrpState.ACTIVE;
    }

    /** {@code mclb failover active}: every group (or the named one) active here now. */
    public void forceActive(String name) {
        submit(() -> byName.values().stream().filter(g -> name == null || g.config().name().equals(name))
                .forEach(g -> g.forceActive(clock.nanoTime())));
    }

    /** {@code mclb failover reset}. */
    public void reset(String name) {
        submit(() -> byName.values().stream().filter(g -> name == null || g.config().name().equals(name))
                .forEach(g -> g.reset(clock.nanoTime())));
    }

    private void submit(Runnable r) {
        tasks.add(r);
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
    }

    /** Adds a listener for state changes; add it before {@link #start()} to see the first transitions. */
    public void addStateListener(StateListener l) {
        stateListeners.add(l);
    }

    /** The groups by name, for views; their getters are safe to read from any thread. */
    public Map<String, StandbyGroup> groups() {
        return java.util.Collections.unmodifiableMap(byName);
    }

    public NanoClock clock() {
        return clock;
    }

    /** Test hook: drop every received HELLO and RESIGN (probes still pass), as a cut heartbeat path would. */
    public void dropHellos(boolean drop) {
        this.dropHellos = drop;
    }

    /** Stops the groups (an active one resigns and releases its address) and closes the sockets. */
    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        submit(() -> {
            for (StandbyGroup g : byName.values()) {
                g.stop(clock.nanoTime());
            }
            running = false;
        });
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running = false;
        for (DatagramChannel ch : new ArrayList<>(channels)) {
            try {
                ch.close();
            } catch (IOException e) {
                LOG.debug("close failed", e);
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("selector close failed", e);
        }
    }

    /** Test hook: stops the thread and closes the sockets without resigning, like {@code kill -9}. */
    public synchronized void crash() {
        running = false;
        if (selector != null) {
            selector.wakeup();
        }
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (DatagramChannel ch : channels) {
            try {
                ch.close();
            } catch (IOException e) {
                LOG.debug("close failed", e);
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("selector close failed", e);
        }
    }
}
