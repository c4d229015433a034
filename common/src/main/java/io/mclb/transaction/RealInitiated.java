package io.mclb.transaction;

import io.mclb.metrics.VserverMetrics;
import io.mclb.net.DropReason;
import io.mclb.service.Classification;
import io.mclb.service.ResponseVerdict;
import io.mclb.service.ServiceInspector;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * The other direction of a {@link TransactionRelay}: requests a real starts toward a client
 * (a GGSN's Update or Delete toward the SGSN of a session anchored on the virtual address) and
 * the client's answers to them. Both arrive at, and leave from, the virtual address.
 *
 * <pre>
 * real --request--&gt; VIP   (classify: REAL_REQUEST for client C)
 *                   VIP --request, id of mclb's on the path to C (toClientRequest)--&gt; C
 *                   VIP &lt;--answer, that id-- C   (classify: CLIENT_ANSWER)
 * real &lt;--answer, the real's own id (toRealAnswer)-- VIP
 * </pre>
 *
 * Transactions live in a {@link TransactionTable} of their own whose "client" is the real and
 * whose paths lead to clients: the id allocation, retransmission identity, linger and object reuse
 * are the forward direction's. No real is chosen, held or charged (the request belongs to the
 * real that sent it, and a client that does not answer is the real's to retry). Loop-confined.
 *
 * @param <T> the inspector's per-transaction state
 */
final class RealInitiated<T> {
    /** More real-initiated requests in flight on one loop than this are refused: they are rare by nature. */
    static final int MAX_IN_FLIGHT = 65_536;

    /** Where the relay writes: from the virtual address to {@code to}. */
    interface Wire {
        void fromVip(ByteBuf datagram, InetSocketAddress to);
    }

    private final ServiceInspector<T> inspector;
    private final VserverMetrics metrics;
    private final Wire wire;
    private final TransactionTable table;
    private final long timeoutNs;
    private final long lingerNs;

    RealInitiated(ServiceInspector<T> inspector, VserverMetrics metrics, Wire wire, long timeoutNs, long lingerNs) {
        this.inspector = inspector;
        this.metrics = metrics;
        this.wire = wire;
        this.table = new TransactionTable(inspector.shape().idBits(), 1, inspector.shape().idsPassThrough(),
                TransactionRelay.retiredStates(inspector));
        this.timeoutNs = timeoutNs;
        this.lingerNs = lingerNs;
    }

    /**
     * Relays a real's request {@code buf} (from {@code real}) to the client the classification
     * names; null when sent (ownership taken), else the reason to drop it for.
     */
    DropReason request(ByteBuf buf, InetSocketAddress real, Classification<T> c, long nowNs) {
        long key = TransactionTable.clientKey(real, c.id(), c.fingerprint());
        Transaction<T> tx = cast(table.byClient(key, real, c.id(), c.fingerprint()));
        if (tx != null) {
            // the real retransmits: same client, same upstream id, so the client sees its duplicate
            metrics.retransmissions.increment();
            tx.retransmissions++;
            send(buf, tx);
            return null;
        }
        if (table.size() >= MAX_IN_FLIGHT) {
            return TransactionBudget.TRANSACTION_TABLE_FULL;
        }
        tx = cast(table.newTransaction(real, c.id(), c.fingerprint(), key, nowNs));
        tx.state = c.adoptState();
        if (!table.assignUpstream(tx, null, c.peer())) {
            table.abandon(tx);
            return table.passesIdsThrough() ? TransactionRelay.UPSTREAM_ID_IN_USE : DropReason.ID_SPACE_EXHAUSTED;
        }
        tx.sentNs = nowNs;
        table.addClient(tx);
        metrics.realInitiated.increment();
        send(buf, tx);
        return null;
    }

    private void send(ByteBuf buf, Transaction<T> tx) {
        inspector.toClientRequest(buf, tx);
        wire.fromVip(buf, tx.target);
    }

    /**
     * Relays a client's answer {@code buf} (from {@code client}) to the real whose request it
     * answers ({@link #owns} said it is this loop's); null when sent, else the reason to drop it for.
     */
    DropReason answer(ByteBuf buf, InetSocketAddress client, long id, long nowNs) {
        Transaction<T> tx = cast(table.byUpstream(0, client, id));
        if (tx == null) {
            return DropReason.UNKNOWN_RESPONSE; // the caller asked owns() first
        }
        tx.dropReason = null;
        if (inspector.onClientAnswer(buf, tx) == ResponseVerdict.DROP) {
            return tx.dropReason != null ? tx.dropReason : TransactionRelay.REJECTED_BY_INSPECTOR;
        }
        if (!tx.answered) {
            tx.answered = true;
            table.answered(tx, nowNs);
        }
        inspector.toRealAnswer(buf, tx);
        metrics.responses.increment();
        wire.fromVip(buf, tx.client);
        return null;
    }

    /** Whether a client's answer with {@code id} belongs to a request sent from this loop. */
    boolean owns(InetSocketAddress client, long id) {
        return table.byUpstream(0, client, id) != null;
    }

    /** Request timeouts (counted, nobody charged) and the end of lingering. */
    void age(long nowNs) {
        Transaction<?> tx;
        while ((tx = table.oldestPending()) != null && nowNs - tx.createdNs >= timeoutNs) {
            table.removeOldestPending();
            metrics.requestTimeouts.increment();
        }
        while ((tx = table.oldestAnswered()) != null && nowNs - tx.answeredNs >= lingerNs) {
            table.removeOldestAnswered();
        }
    }

    int size() {
        return table.size();
    }

    void clear() {
        while (table.oldestPending() != null) {
            table.removeOldestPending();
        }
        while (table.oldestAnswered() != null) {
            table.removeOldestAnswered();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Transaction<T> cast(Transaction<?> tx) {
        return (Transaction<T>) tx;
    }
}
