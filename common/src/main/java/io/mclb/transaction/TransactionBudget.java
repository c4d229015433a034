package io.mclb.transaction;

import io.mclb.config.MclbConfig;
import io.mclb.net.DropReason;
import io.mclb.overload.OverloadLines.MaxTransactions;
import io.mclb.overload.OverloadSyntax;
import io.netty.channel.EventLoop;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code mclb max-transactions N}: at most N transactions tracked per event loop, summed over the
 * virtual servers on it, so a flood of requests nobody answers costs bounded memory. When a loop
 * is at the cap, a new request first takes the place of its relay's longest-lingering answered
 * transaction (kept only to recognise a late retransmission); only when none lingers is it
 * dropped as {@code transaction_table_full}. Requests in flight are never evicted.
 *
 * <p>One per runtime; a relay holds a {@link Share} of its loop's count. Each share's count is
 * settled from its table's size when a request is admitted and after every read batch and
 * ageing tick, on the loop, so a loop's count needs no lock and is exact at each admission.
 */
public final class TransactionBudget {
    /** Declared once: {@code mclb_drops_total{reason="transaction_table_full"}}. */
    public static final DropReason TRANSACTION_TABLE_FULL = DropReason.of("transaction_table_full");

    private final Map<EventLoop, LoopCount> loops = new ConcurrentHashMap<>();
    private volatile int perLoop = MaxTransactions.DEFAULT_PER_LOOP;

    /** Start and reload: the new cap holds from the next admission on. */
    public void apply(MclbConfig config) {
        perLoop = OverloadSyntax.maxTransactions(config).perLoop();
    }

    public int perLoop() {
        return perLoop;
    }

    /** A relay's share of {@code loop}'s count; call once per relay. */
    public Share share(EventLoop loop) {
        return new Share(loops.computeIfAbsent(loop, l -> new LoopCount()));
    }

    /** Transactions tracked on the fullest loop, as last settled (for show; racy by a batch). */
    public long fullestLoop() {
        long max = 0;
        for (LoopCount c : loops.values()) {
            max = Math.max(max, c.tracked);
        }
        return max;
    }

    /** Written only on its loop; {@code volatile} only so that show reads a recent value. */
    private static final class LoopCount {
        volatile long tracked;
    }

    /** One relay's part of its loop's count. Loop-confined. */
    public final class Share {
        private final LoopCount loop;
        private int accounted;

        private Share(LoopCount loop) {
            this.loop = loop;
        }

        /**
         * Whether one more transaction fits on the loop: settles the table's size, then, at the
         * cap, retires the table's longest-lingering answered transaction to make room.
         */
        boolean admit(TransactionTable table) {
            settle(table.size());
            if (loop.tracked < perLoop) {
                return true;
            }
            if (table.oldestAnswered() == null) {
                return false;
            }
            table.removeOldestAnswered();
            settle(table.size());
            return loop.tracked < perLoop;
        }

        /** Brings the loop's count up to date with the table's size. */
        void settle(int tableSize) {
            if (tableSize != accounted) {
                loop.tracked = loop.tracked + tableSize - accounted;
                accounted = tableSize;
            }
        }
    }
}
