package io.mclb.transaction;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** Upstream id allocation: lingering answered transactions give their ids up; pending ones never do. */
class TransactionTableTest {
    private static final InetSocketAddress REAL = new InetSocketAddress("127.0.0.2", 1812);

    private static Transaction tx(TransactionTable t, int n) {
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000 + n);
        return new Transaction(client, n, 0, TransactionTable.clientKey(client, n, 0), n);
    }

    @Test
    void answeredTransactionsLingeringOnAPathDoNotExhaustItsIds() {
        TransactionTable t = new TransactionTable(8); // RADIUS: 256 ids per path
        for (int i = 0; i < 10_000; i++) {
            Transaction x = tx(t, i);
            assertThat(t.assignUpstream(x, null, REAL)).as("request %d", i).isTrue();
            t.addClient(x);
            x.answered = true;
            t.answered(x, i);
        }
        assertThat(t.size()).as("at most one lingering transaction per id").isLessThanOrEqualTo(256);
        // the newest ones still answer late retransmissions
        Transaction last = tx(t, 9_999);
        assertThat(t.byClient(last.clientKey, last.client, 9_999, 0)).isNotNull();
    }

    @Test
    void idsHeldByRequestsStillWaitingAreNeverTaken() {
        TransactionTable t = new TransactionTable(8);
        for (int i = 0; i < 256; i++) {
            Transaction x = tx(t, i);
            assertThat(t.assignUpstream(x, null, REAL)).isTrue();
            t.addClient(x);
        }
        assertThat(t.assignUpstream(tx(t, 999), null, REAL)).as("every id waits for an answer").isFalse();
        Transaction first = t.oldestPending();
        first.answered = true;
        t.answered(first, 1);
        Transaction next = tx(t, 1000);
        assertThat(t.assignUpstream(next, null, REAL)).isTrue();
        assertThat(next.upstreamId).isEqualTo(first.upstreamId);
        assertThat(t.byUpstream(REAL, first.upstreamId)).isSameAs(next);
    }

    @Test
    void moreUpstreamSocketsMultiplyTheRequestsInFlightPerReal() {
        TransactionTable t = new TransactionTable(8, 4); // RADIUS ids, four sockets: 1,024 in flight
        InetSocketAddress other = new InetSocketAddress("127.0.0.3", 1812);
        java.util.List<Transaction> waiting = new java.util.ArrayList<>();
        int[] perSocket = new int[4];
        for (int i = 0; i < 1024; i++) {
            Transaction x = tx(t, i);
            assertThat(t.assignUpstream(x, null, REAL)).as("request %d", i).isTrue();
            t.addClient(x);
            waiting.add(x);
            perSocket[t.socketOf(x)]++;
        }
        assertThat(perSocket).containsOnly(256);
        assertThat(t.assignUpstream(tx(t, 5000), null, REAL)).as("all 4 x 256 ids wait").isFalse();
        assertThat(t.assignUpstream(tx(t, 5001), null, other)).as("another real has its own paths").isTrue();
        // an answer is found by (socket, sender, id); the same id on another socket is another request
        for (Transaction x : waiting) {
            assertThat(t.byUpstream(t.socketOf(x), REAL, x.upstreamId)).isSameAs(x);
            Transaction onNext = t.byUpstream((t.socketOf(x) + 1) % 4, REAL, x.upstreamId);
            assertThat(onNext).isNotSameAs(x);
        }
        assertThat(t.byUpstream(4, REAL, 0)).isNull();
    }

    @Test
    void passThroughIdsKeepTheClientsIdAndMoveOnlyTheSocketOnACollision() {
        TransactionTable t = new TransactionTable(32, 2, true);
        Transaction a = tx(t, 5);
        Transaction b = tx(t, 5);
        Transaction c = tx(t, 5);
        assertThat(t.assignUpstream(a, null, REAL)).isTrue();
        t.addClient(a);
        assertThat(t.assignUpstream(b, null, REAL)).isTrue();
        t.addClient(b);
        assertThat(a.upstreamId).isEqualTo(5);
        assertThat(b.upstreamId).isEqualTo(5);
        assertThat(t.socketOf(b)).isNotEqualTo(t.socketOf(a));
        assertThat(t.assignUpstream(c, null, REAL)).as("both sockets wait for id 5").isFalse();
        assertThat(t.byUpstream(t.socketOf(a), REAL, 5)).isSameAs(a);
        assertThat(t.byUpstream(t.socketOf(b), REAL, 5)).isSameAs(b);
        // an answered one only lingers: its path is free for the id again
        a.answered = true;
        t.answered(a, 1);
        assertThat(t.assignUpstream(c, null, REAL)).isTrue();
        assertThat(t.socketOf(c)).isEqualTo(t.socketOf(a));
        Transaction other = tx(t, 6);
        assertThat(t.assignUpstream(other, null, REAL)).isTrue();
        assertThat(other.upstreamId).as("never rewritten").isEqualTo(6);
    }
}
