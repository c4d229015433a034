package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Control TEIDs mclb gives SGSNs under {@code gtp signalling vip}, in place of each GGSN's own
 * (which collide across a farm: osmo-ggsn, for one, counts from 1).
 * <pre>
 *   bit 31       HA node (0 or 1): the two nodes of a pair never hand out the same TEID, so a
 *                session the standby did not receive before a takeover cannot be shadowed
 *   bits 30..0   a counter, starting at a random point (a restarted node does not reuse the
 *                TEIDs of its previous run first), never 0 (29.060: TEID 0 means "none")
 * </pre>
 * A TEID that still names a session in the table (e.g. one replicated from the peer, or after the
 * counter wrapped) is skipped. Shared by every event loop; lock-free (one atomic counter).
 */
final class GtpTeidAllocator {
    /** How many in-use TEIDs in a row are skipped before giving up: far beyond any real table's density. */
    static final int MAX_PROBES = 64;
    private static final int COUNTER_MASK = 0x7FFF_FFFF;

    private final AtomicInteger counter;
    private volatile int nodeBit;

    GtpTeidAllocator(int start) {
        this.counter = new AtomicInteger(start);
    }

    /** The HA node this runtime is (0 or 1), from {@link GtpHaNode}. */
    void node(int node) {
        this.nodeBit = (node & 1) << 31;
    }

    int node() {
        return nodeBit >>> 31;
    }

    /** A TEID of this node that names no session in {@code sessions}, or 0 when {@link #MAX_PROBES} in a row were taken. */
    int next(BindingTable<GtpSession> sessions) {
        for (int i = 0; i < MAX_PROBES; i++) {
            int low = counter.getAndIncrement() & COUNTER_MASK;
            if (low == 0) {
                continue;
            }
            int teid = nodeBit | low;
            // unique across versions too: the TEID names one session whichever version asks
            if (sessions.byAlias(GtpSession.alias(1, teid)) == null && sessions.byAlias(GtpSession.alias(2, teid)) == null) {
                return teid;
            }
        }
        return 0;
    }
}
