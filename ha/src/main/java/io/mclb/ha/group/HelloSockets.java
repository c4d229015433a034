package io.mclb.ha.group;

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
import java.util.List;
import java.util.Map;

/**
 * The UDP sockets of the groups and the selector over them: per group address, one socket bound to
 * {@code address:port} (unicast hellos to each {@code standby G peer}, and multicast to 224.0.0.102
 * (v2) / 224.0.0.2 (v1) on the interface when the interface supports multicast); per multicast
 * group, one socket bound to it and joined on the interface; while a group is active, one bound to
 * {@code vip:port}, which answers the split-brain PROBE (a node whose process died answers nothing
 * there, even if its kernel still holds the address).
 *
 * <p>Confined to the {@code mclb-ha} thread once started, except {@link #wakeup}; {@link #closeAll}
 * runs after that thread has stopped.
 */
final class HelloSockets {
    /** The manager's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(GroupManager.class);
    private static final int DRAIN_BATCH = 64;

    private final RunningGroups groups;
    private final int port;
    private final Map<StandbyGroup, DatagramChannel> unicast = new HashMap<>();
    private final Map<StandbyGroup, InetSocketAddress> multicastDest = new HashMap<>();
    private final Map<StandbyGroup, DatagramChannel> vipSockets = new HashMap<>();
    private final List<DatagramChannel> channels = new ArrayList<>();
    private final ByteBuffer rx = ByteBuffer.allocate(512);
    /** Opened by {@link #start}; read by {@link #wakeup} from any thread. */
    private volatile Selector selector;

    HelloSockets(RunningGroups groups, int port) {
        this.groups = groups;
        this.port = port;
    }

    void start() throws IOException {
        selector = Selector.open();
    }

    /** Opens the group's unicast socket and, where the interface allows, its multicast membership. */
    void openGroup(StandbyGroup g) throws IOException {
        GroupConfig c = g.config();
        DatagramChannel ch = open(c.address(), new InetSocketAddress(c.address(), port));
        unicast.put(g, ch);
        multicast(g, ch);
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
            // one membership per multicast group: every socket bound to it receives each hello, so a
            // second one would only deliver duplicates
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

    /** Unicast to every configured peer, and to the multicast group when the interface has one. */
    void sendHello(StandbyGroup g, Hello h) {
        DatagramChannel ch = unicast.get(g);
        for (InetAddress p : g.config().peers()) {
            send(ch, g, h, new InetSocketAddress(p, port));
        }
        InetSocketAddress m = multicastDest.get(g);
        if (m != null) {
            send(ch, g, h, m);
        }
    }

    /** To the virtual address (whoever owns it answers) and to every peer. */
    void sendProbe(StandbyGroup g, Hello probe) {
        if (g.vip() != null) {
            send(unicast.get(g), g, probe, new InetSocketAddress(g.vip(), port));
        }
        sendHello(g, probe);
    }

    /** Answers on the socket the message came in on, so a probe of the virtual address is answered from it. */
    void reply(DatagramChannel ch, StandbyGroup g, Hello h, InetSocketAddress to) {
        send(ch, g, h, to);
    }

    private void send(DatagramChannel ch, StandbyGroup g, Hello h, InetSocketAddress to) {
        try {
            ch.send(ByteBuffer.wrap(groups.codec(g).encode(h)), to);
        } catch (IOException e) {
            LOG.debug("group {}: send to {} failed: {}", g.config().name(), to, e.toString());
        }
    }

    /** The group went active: bind {@code vip:port} so takeover probes of the address are answered. */
    void openVip(StandbyGroup g) {
        try {
            vipSockets.put(g, open(g.vip(), new InetSocketAddress(g.vip(), port)));
        } catch (IOException e) {
            LOG.warn("group {}: cannot bind {}:{} to answer takeover probes: {}", g.config().name(),
                    g.vip().getHostAddress(), port, e.toString());
        }
    }

    void closeVip(StandbyGroup g) {
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

    /** Waits up to {@code timeoutMs} (or a {@link #wakeup}) and hands every datagram read to {@code receiver}. */
    void receive(long timeoutMs, HelloReceiver receiver) throws IOException {
        selector.select(timeoutMs);
        for (SelectionKey k : selector.selectedKeys()) {
            if (k.isValid() && k.isReadable()) {
                drain((DatagramChannel) k.channel(), receiver);
            }
        }
        selector.selectedKeys().clear();
    }

    /** At most a batch per socket and turn, so timers and the other sockets are not starved by a flood. */
    private void drain(DatagramChannel ch, HelloReceiver receiver) throws IOException {
        for (int i = 0; i < DRAIN_BATCH; i++) {
            rx.clear();
            InetSocketAddress from = (InetSocketAddress) ch.receive(rx);
            if (from == null) {
                return;
            }
            receiver.received(ch, from, rx.array(), rx.position());
        }
    }

    /** Any thread: ends a {@link #receive} wait early; nothing before {@link #start}. */
    void wakeup() {
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
    }

    void closeAll() {
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
}
