package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusSecret;

/**
 * The {@link RadiusTx} objects of one inspector (one virtual server on one event loop), reused:
 * {@link #take} at classification, {@link #retired} when the engine hands a state back
 * ({@code ServiceInspector.retired}: its transaction object is being reused, or no transaction
 * took it). In steady state each new request takes the state its reused transaction just gave
 * back, so the free list stays small; at most {@link #MAX_FREE} wait (a burst's surplus goes to
 * the GC). A state is never handed out while it is live: {@link RadiusTx#live} marks the objects
 * out of the pool, and a second retirement of one (which the engine's contract rules out) does not
 * put it in the free list twice. Loop-confined.
 */
final class RadiusTxPool {
    static final int MAX_FREE = 1024;
    private final RadiusTx[] free = new RadiusTx[MAX_FREE];
    private int size;
    private long created;

    RadiusTx take(RadiusSecret nasSecret, int code, int acctStatus, int framedIp, int nasIp) {
        RadiusTx tx;
        if (size > 0) {
            tx = free[--size];
            free[size] = null;
        } else {
            tx = new RadiusTx();
            created++;
        }
        tx.live = true;
        return tx.reset(nasSecret, code, acctStatus, framedIp, nasIp);
    }

    void retired(RadiusTx tx) {
        if (!tx.live) {
            return;
        }
        tx.live = false;
        if (size < MAX_FREE) {
            free[size++] = tx;
        }
    }

    /** States waiting for reuse. */
    int free() {
        return size;
    }

    /** States ever created (the rest of {@link #take}s were reuses). */
    long created() {
        return created;
    }
}
