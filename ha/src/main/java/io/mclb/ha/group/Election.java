package io.mclb.ha.group;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * The election's comparisons (RFC 2281: priority, then the higher interface address; mclb: a forced
 * node above any priority) and what a node reports of its links: pure functions of the configuration,
 * the link states and a hello.
 */
final class Election {
    /** A forced-active node's priority on the wire and in comparisons: above any configured one. */
    static final int FORCED_PRIORITY = 256;

    private Election() {
    }

    /** Whether the sender of {@code h} wins against a node with {@code mine} at {@code address}. */
    static boolean peerBetter(int mine, InetAddress address, Hello h) {
        int theirs = wirePriority(h);
        if (mine != theirs) {
            return theirs > mine;
        }
        return compare(h.sender().getAddress(), address.getAddress()) > 0;
    }

    static int wirePriority(Hello h) {
        return h.forced() ? FORCED_PRIORITY : h.priority();
    }

    private static int compare(byte[] a, byte[] b) {
        return a.length != b.length ? Integer.compare(a.length, b.length) : Arrays.compareUnsigned(a, b);
    }

    /** Configured priority less the decrement of every tracked interface that is down, at least 0. */
    static int effectivePriority(GroupConfig cfg, LinkState links) {
        int p = cfg.priority();
        for (GroupConfig.Track t : cfg.tracks()) {
            if (!links.up(t.iface())) {
                p -= t.decrement();
            }
        }
        return Math.max(0, p);
    }

    /** Per mille of this node's links up: the group's interface and every tracked one. */
    static int score(GroupConfig cfg, LinkState links) {
        int n = 1;
        int up = links.up(cfg.iface()) ? 1 : 0;
        for (GroupConfig.Track t : cfg.tracks()) {
            n++;
            up += links.up(t.iface()) ? 1 : 0;
        }
        return up * 1000 / n;
    }
}
