package io.mclb.gtp.lb;

import java.util.ArrayDeque;

/**
 * The {@link GtpTx.Create} states of one {@link GtpInspector}, reused once the engine retires them
 * ({@link io.mclb.service.ServiceInspector#retired}), so a create costs no allocation of the
 * module's in steady state. Only objects made for one transaction come here: a {@link GtpSession}
 * (the state of its own follow-ups, retired once per transaction) and the session's own
 * {@link GtpTx.Follow} / {@link GtpTx.FromGgsn} objects are never pooled.
 *
 * <p>Confined to the inspector's event loop. Bounded: a burst's surplus goes to the GC.
 */
final class GtpTxPool {
    /** Retired creates kept at most (about 50 bytes each). */
    static final int MAX_FREE = 16_384;

    private final ArrayDeque<GtpTx.Create> free = new ArrayDeque<>();
    private long made;
    private long refusedTwice;

    /** A create's state for {@code imsiRaw}/{@code nsapi} (through {@code via}, or null), reused when one is free. */
    GtpTx.Create create(long imsiRaw, int nsapi, GtpSession via) {
        GtpTx.Create c = free.pollFirst();
        if (c == null) {
            made++;
            return new GtpTx.Create(imsiRaw, nsapi, via);
        }
        c.pooled = false;
        return c.reset(imsiRaw, nsapi, via);
    }

    /**
     * {@code state} is no transaction's any more (retired by the engine, or never handed to it):
     * a create goes back for reuse, anything else is left to the GC. The same object retired twice
     * without being taken in between is kept once, never handed to two transactions.
     */
    void retire(GtpTx state) {
        if (!(state instanceof GtpTx.Create c)) {
            return;
        }
        if (c.pooled) {
            refusedTwice++;
            return;
        }
        if (free.size() < MAX_FREE) {
            c.reset(0, 0, null); // drop the sessions it named, which may end meanwhile
            c.pooled = true;
            free.addFirst(c);
        }
    }

    /** Creates made new (not reused) since the start. */
    long made() {
        return made;
    }

    /** Retirements of an object already in the pool (an engine bug if ever non-zero). */
    long refusedTwice() {
        return refusedTwice;
    }

    int free() {
        return free.size();
    }
}
