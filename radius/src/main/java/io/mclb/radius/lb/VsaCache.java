package io.mclb.radius.lb;

import java.util.concurrent.ConcurrentHashMap;

/**
 * VSA correlation ({@code radius inject auth|acct vsa cisco}): the Cisco Vendor-Specific
 * attributes of a subscriber's last Access-Request, kept until its Accounting-Start takes them
 * or they expire. Keyed by a 64-bit hash of the subscriber identity (Calling-Station-Id, else
 * User-Name). Bounded: beyond {@link #MAX_ENTRIES} new entries are refused (counted by the caller)
 * rather than evicting. Thread-safe: the auth and accounting virtual servers run on any loop.
 */
final class VsaCache {
    static final int MAX_ENTRIES = 200_000;

    private record Entry(byte[] attributes, long expiresNs) {
    }

    private final ConcurrentHashMap<Long, Entry> map = new ConcurrentHashMap<>();

    /** @return false when the cache is full */
    boolean put(long subscriber, byte[] attributes, long expiresNs) {
        if (map.size() >= MAX_ENTRIES && !map.containsKey(subscriber)) {
            return false;
        }
        map.put(subscriber, new Entry(attributes, expiresNs));
        return true;
    }

    /** The attributes remembered for {@code subscriber} (whole type-26 attributes, concatenated), or null. */
    byte[] get(long subscriber, long nowNs) {
        Entry e = map.get(subscriber);
        if (e == null) {
            return null;
        }
        if (nowNs - e.expiresNs >= 0) {
            map.remove(subscriber, e);
            return null;
        }
        return e.attributes;
    }

    void remove(long subscriber) {
        map.remove(subscriber);
    }

    /** Drops expired entries (run periodically off the data path). */
    void sweep(long nowNs) {
        map.values().removeIf(e -> nowNs - e.expiresNs >= 0);
    }

    int size() {
        return map.size();
    }
}
