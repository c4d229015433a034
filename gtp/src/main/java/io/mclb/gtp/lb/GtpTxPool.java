package io.mclb.gtp.lb;

import java.util.ArrayDeque;

/**
 * The {@link GtpTx.Create} and {@link GtpTx.End} (a delete's) states of one {@link GtpInspector},
 * reused once the engine retires them ({@link io.mclb.service.ServiceInspector#retired}), so a create
 * or a delete costs no allocation of the module's in steady state. Only objects made for one
 * transaction come here: a {@link GtpSession} (retired by any transaction that carries it) and the
 * session's own {@link GtpTx.Follow} / {@link GtpTx.FromGgsn} objects are never pooled.
 *
 * <p>Confined to the inspector's event loop. Bounded: a burst's surplus goes to the GC.
 */
final class GtpTxPool {
    /** Retired creates kept at most (about 50 bytes each), and as many deletes' states (24 bytes). */
    static final int MAX_FREE = 16_384;

    private final ArrayDeque<GtpTx.Create> free = new ArrayDeque<>();
    private final ArrayDeque<GtpTx.End> freeEnds = new ArrayDeque<>();
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

    /** A delete's state: {@code session} as of {@code generation}, reused when one is free. */
    GtpTx.End end(GtpSession session, int generation) {
        GtpTx.End e = freeEnds.pollFirst();
        if (e == null) {
            made++;
            e = new GtpTx.End();
        }
        e.pooled = false;
        return e.reset(session, generation);
    }

    /**
     * {@code state} is no transaction's any more (retired by the engine, or never handed to it):
     * a create goes back for reuse, anything else is left to the GC. The same object retired twice
     * without being taken in between is kept once, never handed to two transactions.
     */
    void retire(GtpTx state) {
        if (state instanceof GtpTx.End e) {
            retire(e);
            return;
        }
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

    private void retire(GtpTx.End e) {
        if (e.pooled) {
            refusedTwice++;
        } else if (freeEnds.size() < MAX_FREE) {
            e.reset(null, 0); // drop the session it named
            e.pooled = true;
            freeEnds.addFirst(e);
        }
    }

    /** Creates and deletes' states made new (not reused) since the start. */
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
