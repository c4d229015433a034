package io.mclb.ha.group;

import io.mclb.net.SecurityLog;
import io.mclb.time.NanoClock;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a received datagram may reach a group's state machine, then hands it over.
 *
 * <p>A message is refused and counted (and changes nothing) when malformed, badly authenticated,
 * for an unknown group, from an unknown peer (not a configured peer, or when none is configured not
 * on the interface's subnet, or its claimed address differs from the datagram's source, except a probe
 * reply from the virtual address), or replayed
 * (boot id older than the last seen, or same boot and a sequence not above the last; an equal
 * sequence is the multicast/unicast duplicate and is dropped silently).
 *
 * <p>Confined to the {@code mclb-ha} thread, except {@link #dropHellos}.
 */
final class HelloReceiver {
    private final RunningGroups groups;
    private final HelloSockets sockets;
    private final HaMetrics metrics;
    private final NanoClock clock;
    /** Badly authenticated hellos, logged once per sender per minute (issue 14 item 4). */
    private final SecurityLog security;
    /** Per group and sender: the {boot id, sequence} of the last message accepted. */
    private final Map<String, long[]> lastSeen = new HashMap<>();
    private volatile boolean dropHellos;

    HelloReceiver(RunningGroups groups, HelloSockets sockets, HaMetrics metrics, NanoClock clock) {
        this.groups = groups;
        this.sockets = sockets;
        this.metrics = metrics;
        this.clock = clock;
        this.security = new SecurityLog(clock);
    }

    /** {@code ch} is the socket it came in on: a PROBE is answered on it. */
    void received(DatagramChannel ch, InetSocketAddress from, byte[] buf, int len) {
        if (len < 8 || buf[0] != 'M' || buf[1] != 'H') {
            metrics.refused(HelloCodec.Refusal.MALFORMED);
            return;
        }
        List<StandbyGroup> candidates = groups.numbered(((buf[4] & 0xff) << 8) | (buf[5] & 0xff));
        if (candidates == null) {
            metrics.refused(HelloCodec.Refusal.UNKNOWN_GROUP);
            return;
        }
        StandbyGroup g = candidates.get(0);
        HelloCodec.Decoded d = groups.codec(g).decode(buf, len);
        if (d.refusal() != null) {
            metrics.refused(d.refusal());
            if (d.refusal() == HelloCodec.Refusal.BAD_AUTH) {
                security.warn(from.getAddress(), "ha-hello/" + g.config().name(), "ha group " + g.config().name()
                        + ": hello refused, its authentication does not verify (bad_auth): the peers disagree on"
                        + " 'standby G authentication md5 key-string'");
            }
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
            case HELLO, RESIGN, STOP -> {
                if (dropHellos) {
                    return;
                }
                metrics.received(g.config().name());
                g.onHello(h, now);
            }
            case PROBE -> sockets.reply(ch, g, g.probeReply(now), from);
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

    /** Test hook: drop every HELLO and RESIGN after the checks (probes still pass), as a cut heartbeat path would. */
    void dropHellos(boolean drop) {
        this.dropHellos = drop;
    }
}
