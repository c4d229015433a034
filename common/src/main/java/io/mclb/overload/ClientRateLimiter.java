package io.mclb.overload;

import io.mclb.sticky.Hashing;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * At most {@code sessions} new sessions per client address per interval: the buckets behind
 * {@code synguard N [INTERVAL]} for one relay (one virtual server on one event loop).
 *
 * <p>A bucket counts the client's sessions in a fixed window that opens with its first session
 * after the previous window closed. Buckets live in a fixed table ({@link #SLOTS} slots, a
 * probe run of {@link #PROBES}): a client's bucket is found in its run, or takes a free or
 * expired slot there, or else evicts the run's bucket whose window opened longest ago (counted
 * in {@link #evictions()}). So memory is fixed whatever the number of clients, and only a client
 * whose run is full of clients active in the same interval can lose its count early (a spoofed
 * flood of thousands of addresses within one interval). IPv4 clients are keyed exactly; IPv6
 * addresses by a 64-bit hash of the 128 bits.
 *
 * <p>Loop-confined: no locks, no allocation per call for IPv4 (IPv6 copies its 16 octets once
 * per new session, as {@link InetAddress#getAddress} does).
 */
public final class ClientRateLimiter {
    static final int SLOTS = 4096;
    static final int PROBES = 8;
    private static final long V6_SEED = 0x5EED_6666L;

    private final long[] keys = new long[SLOTS];
    private final long[] windowStartNs = new long[SLOTS];
    private final long[] counts = new long[SLOTS];
    private final long sessions;
    private final long intervalNs;
    private long evictions;

    public ClientRateLimiter(long sessions, int intervalMs) {
        if (sessions < 1 || intervalMs < 1) {
            throw new IllegalArgumentException("sessions and interval must be positive");
        }
        this.sessions = sessions;
        this.intervalNs = intervalMs * 1_000_000L;
    }

    /** Whether {@code client} may open one more session at {@code nowNs} (and, if so, counts it). */
    public boolean admit(InetAddress client, long nowNs) {
        return admit(keyOf(client), nowNs);
    }

    boolean admit(long key, long nowNs) {
        int home = (int) Hashing.fmix64(key) & (SLOTS - 1);
        int reusable = -1;
        int oldest = home;
        for (int p = 0; p < PROBES; p++) {
            int i = (home + p) & (SLOTS - 1);
            if (keys[i] == key) {
                if (nowNs - windowStartNs[i] >= intervalNs) {
                    windowStartNs[i] = nowNs;
                    counts[i] = 1;
                    return true;
                }
                if (counts[i] < sessions) {
                    counts[i]++;
                    return true;
                }
                return false;
            }
            if (reusable < 0 && (keys[i] == 0 || nowNs - windowStartNs[i] >= intervalNs)) {
                reusable = i;
            }
            if (windowStartNs[i] - windowStartNs[oldest] < 0) {
                oldest = i;
            }
        }
        int slot = reusable;
        if (slot < 0) {
            slot = oldest;
            evictions++;
        }
        keys[slot] = key;
        windowStartNs[slot] = nowNs;
        counts[slot] = 1;
        return true;
    }

    /** Buckets of clients still inside their interval that another client's bucket replaced. */
    public long evictions() {
        return evictions;
    }

    /** Never 0 (the empty slot): IPv4 exactly, above 2^32; IPv6 hashed, with the top bit set. */
    static long keyOf(InetAddress a) {
        if (a instanceof Inet4Address) {
            return (1L << 32) | (a.hashCode() & 0xFFFF_FFFFL); // Inet4Address.hashCode is the address
        }
        byte[] b = a.getAddress();
        return Hashing.murmur64(b, 0, b.length, V6_SEED) | Long.MIN_VALUE;
    }
}
