package io.mclb.ha.group;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One HSRP-style group from an {@code interface NAME} stanza: immutable, built by the HA
 * configuration reader.
 *
 * @param iface          the interface the virtual address lives on
 * @param address        this node's address on it ({@code ip address A M}); hellos carry it and are sent from it
 * @param prefix         the interface's prefix length; the virtual address is added with it
 * @param version        {@code standby version 1|2}: picks the multicast group (224.0.0.2 or 224.0.0.102)
 * @param group          the group number (0..255 in v1, 0..4095 in v2)
 * @param name           {@code standby G name NAME}, what {@code inservice standby NAME} refers to; never null
 *                       (defaults to {@code hsrp-IFACE-G} as IOS does)
 * @param vip            {@code standby G ip VIP}; null means learn it from the active peer (state Learn)
 * @param priority       0..255, default 100
 * @param preempt        {@code standby G preempt}
 * @param preemptDelayMs {@code preempt delay minimum S}: how long after this group started before it may preempt
 * @param helloMs        hello period
 * @param holdMs         how long a peer's last hello stays valid; must exceed helloMs
 * @param key            the shared key of {@code authentication md5 key-string}; null: hellos unauthenticated
 * @param tracks         {@code standby G track N decrement D}
 * @param peers          {@code standby G peer IP}: unicast hello destinations; when empty, any sender on the
 *                       interface's subnet is a known peer, else only these
 */
public record GroupConfig(String iface, InetAddress address, int prefix, int version, int group, String name,
                          InetAddress vip, int priority, boolean preempt, long preemptDelayMs, int helloMs, int holdMs,
                          byte[] key, List<Track> tracks, List<InetAddress> peers) {

    public static final int DEFAULT_PRIORITY = 100;
    public static final int DEFAULT_HELLO_MS = 3000;
    public static final int DEFAULT_HOLD_MS = 10000;
    /** Used when a {@code track} line gives no decrement (IOS's documented default). */
    public static final int DEFAULT_DECREMENT = 10;

    public GroupConfig {
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(name, "name");
        tracks = List.copyOf(tracks);
        peers = List.copyOf(peers);
        key = key == null ? null : key.clone();
        if (holdMs <= helloMs) {
            throw new IllegalArgumentException("hold " + holdMs + " ms must exceed hello " + helloMs + " ms");
        }
    }

    /** A tracked object: while its interface's line protocol is down, priority drops by {@code decrement}. */
    public record Track(int object, String iface, int decrement) {
    }

    /**
     * True when {@code o} is the same group on the same interface, address and virtual address: what
     * differs then (priority, preempt, timers, key, tracks, peers) can change while the group runs.
     */
    public boolean sameIdentity(GroupConfig o) {
        return iface.equals(o.iface) && address.equals(o.address) && prefix == o.prefix && version == o.version
                && group == o.group && name.equals(o.name) && Objects.equals(vip, o.vip);
    }

    /** A copy with other unicast peers (tests, and the netns system test). */
    public GroupConfig withPeers(List<InetAddress> newPeers) {
        return new GroupConfig(iface, address, prefix, version, group, name, vip, priority, preempt, preemptDelayMs,
                helloMs, holdMs, key, tracks, newPeers);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupConfig g && iface.equals(g.iface) && address.equals(g.address) && prefix == g.prefix
                && version == g.version && group == g.group && name.equals(g.name) && Objects.equals(vip, g.vip)
                && priority == g.priority && preempt == g.preempt && preemptDelayMs == g.preemptDelayMs
                && helloMs == g.helloMs && holdMs == g.holdMs && Arrays.equals(key, g.key)
                && tracks.equals(g.tracks) && peers.equals(g.peers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(iface, address, group, name);
    }

    @Override
    public String toString() {
        return "group " + group + " (" + name + ") on " + iface + " " + address.getHostAddress() + " vip "
                + (vip == null ? "-" : vip.getHostAddress()) + " priority " + priority + (preempt ? " preempt" : "")
                + " timers " + helloMs + "/" + holdMs + " ms" + (key == null ? "" : " authenticated");
    }
}
