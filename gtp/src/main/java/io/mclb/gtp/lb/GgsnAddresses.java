package io.mclb.gtp.lb;

import java.util.Arrays;

/**
 * The GGSN signalling addresses one {@link GtpInspector} learnt from create answers, each kept as
 * one array that every session of that GGSN shares: a farm has a handful of GGSNs, so a create
 * answer costs a compare, not a copy. The arrays are never written once handed out (sessions,
 * replication and the show commands only read them). Confined to the inspector's event loop.
 */
final class GgsnAddresses {
    /** Addresses kept; a farm with more GGSNs than this only copies more often. */
    static final int SLOTS = 32;

    private final byte[][] known = new byte[SLOTS][];
    private int next;

    /** The shared array equal to the first {@code len} octets of {@code scratch} (4 or 16), or null for 0. */
    byte[] intern(byte[] scratch, int len) {
        if (len == 0) {
            return null;
        }
        for (byte[] k : known) {
            if (k != null && Arrays.equals(k, 0, k.length, scratch, 0, len)) {
                return k;
            }
        }
        byte[] copy = Arrays.copyOf(scratch, len);
        known[next] = copy;
        next = (next + 1) % SLOTS;
        return copy;
    }
}
