package io.mclb.gtp.lb;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GSNs mclb talks GTP with ({@code show gtp gsn}): each SGSN/S-GW that sends requests to a
 * GTP virtual server and each GGSN/P-GW that answers them, with the Recovery (restart counter)
 * last seen from it. A GSN silent for the GSN idle timer ({@code ip slb timers gtp gsn S}) is
 * forgotten, and with it its echo state: the Recovery it sent, so a GSN that comes back after a
 * long silence starts a fresh restart history instead of being compared with a stale counter.
 *
 * <p>Written from every event loop: an existing GSN costs a map lookup and, at most once a second,
 * one volatile write; a new GSN is one allocation. Thread-safe.
 */
final class GsnTable {
    /** IOS {@code ip slb timers gtp gsn} default; mclb's choice where the documents give none. */
    static final int DEFAULT_IDLE_SECONDS = 90;
    private static final long TOUCH_NS = 1_000_000_000L;

    /** Which side of mclb a GSN is on. */
    enum Side {
        /** Sends requests to a virtual server: SGSN (v0/v1) or S-GW/MME (v2). */
        SGSN,
        /** A real of a GTP farm: GGSN (v0/v1) or P-GW (v2). */
        GGSN
    }

    /** One GSN; identity final, the rest written by whichever loop sees it. */
    static final class Gsn {
        final Side side;
        final InetAddress address;
        final long firstSeenNs;
        volatile long lastSeenNs;
        /** Recovery last seen, -1 while none was. */
        volatile int recovery = -1;
        /** GTP version of the last message seen (0, 1, 2). */
        volatile int version;
        volatile long restarts;

        Gsn(Side side, InetAddress address, long nowNs) {
            this.side = side;
            this.address = address;
            this.firstSeenNs = nowNs;
            this.lastSeenNs = nowNs;
        }
    }

    private final ConcurrentHashMap<InetAddress, Gsn> sgsns = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<InetAddress, Gsn> ggsns = new ConcurrentHashMap<>();
    private volatile long idleNs = DEFAULT_IDLE_SECONDS * 1_000_000_000L;

    void idleSeconds(int seconds) {
        idleNs = seconds * 1_000_000_000L;
    }

    int idleSeconds() {
        return (int) (idleNs / 1_000_000_000L);
    }

    /**
     * A message from {@code address}.
     *
     * @param recovery the Recovery IE it carried, -1 when none
     * @return true when the Recovery differs from the one last seen: the GSN restarted
     */
    boolean seen(Side side, InetAddress address, int version, int recovery, long nowNs) {
        ConcurrentHashMap<InetAddress, Gsn> map = side == Side.SGSN ? sgsns : ggsns;
        Gsn g = map.get(address);
        if (g == null) {
            g = map.computeIfAbsent(address, a -> new Gsn(side, a, nowNs));
        }
        if (nowNs - g.lastSeenNs >= TOUCH_NS) {
            g.lastSeenNs = nowNs;
        }
        if (g.version != version) {
            g.version = version;
        }
        if (recovery < 0 || recovery == g.recovery) {
            return false;
        }
        synchronized (g) { // a change is rare (a restart); two loops seeing it count it once
            int before = g.recovery;
            if (before == recovery) {
                return false;
            }
            g.recovery = recovery;
            if (before < 0) {
                return false;
            }
            g.restarts++;
            return true;
        }
    }

    /** Forgets GSNs silent longer than the idle timer; returns how many. */
    int expire(long nowNs) {
        long idle = idleNs;
        int before = sgsns.size() + ggsns.size();
        sgsns.values().removeIf(g -> nowNs - g.lastSeenNs > idle);
        ggsns.values().removeIf(g -> nowNs - g.lastSeenNs > idle);
        return before - sgsns.size() - ggsns.size();
    }

    int size() {
        return sgsns.size() + ggsns.size();
    }

    int count(Side side) {
        return (side == Side.SGSN ? sgsns : ggsns).size();
    }

    /** SGSNs first, then GGSNs, each by address. */
    List<Gsn> snapshot() {
        List<Gsn> all = new ArrayList<>(sgsns.values());
        List<Gsn> g = new ArrayList<>(ggsns.values());
        Comparator<Gsn> byAddress = Comparator.comparing(x -> x.address.getHostAddress());
        all.sort(byAddress);
        g.sort(byAddress);
        all.addAll(g);
        return all;
    }
}
