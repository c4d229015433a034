package io.mclb.transaction;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** Upstream id allocation: lingering answered transactions give their ids up; pending ones never do. */
class TransactionTableTest {
    private static final InetSocketAddress REAL = new InetSocketAddress("127.0.0.2", 1812);

    private static Transaction tx(TransactionTable t, int n) {
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000 + n % 50_000);
        return t.newTransaction(client, n, 0, TransactionTable.clientKey(client, n, 0), n);
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

    @Test
    void forgottenTransactionsAreReusedOnlyOnceNoQueueNamesThem() {
        TransactionTable t = new TransactionTable(16);
        java.util.Set<Transaction<?>> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        long now = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 100; i++, now++) {
                InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000 + i);
                Transaction<?> x = t.newTransaction(client, now, 7, TransactionTable.clientKey(client, now, 7), now);
                assertThat(x.answered || x.done || x.real != null || x.stickyKey() != null || x.state() != null)
                        .as("a reused transaction starts fresh").isFalse();
                x.copyStickyKey(new byte[] {(byte) i, 2, 3});
                assertThat(t.assignUpstream(x, null, REAL)).isTrue();
                t.addClient(x);
                if (i % 10 == 0) {
                    continue; // left waiting: times out below
                }
                x.answered = true;
                t.answered(x, now);
                seen.add(x);
            }
            // what a relay's timer does: time out the waiting ones, then end the linger of the answered ones
            Transaction<?> w;
            while ((w = t.oldestPending()) != null) {
                t.removeOldestPending();
                assertThat(w.client).as("a timed-out transaction is still readable until the next request").isNotNull();
            }
            while (t.oldestAnswered() != null) {
                t.removeOldestAnswered();
            }
            assertThat(t.size()).isZero();
        }
        assertThat(t.created()).as("5,000 requests in rounds of 100").isLessThanOrEqualTo(100);
        assertThat(seen).hasSizeLessThanOrEqualTo(100);
    }

    @Test
    void aTransactionStillQueuedIsNotReusedEvenWhenItsIdWasTakenOver() {
        TransactionTable t = new TransactionTable(1); // two ids per path: takeovers come quickly
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000);
        Transaction<?> a = t.newTransaction(client, 1, 0, TransactionTable.clientKey(client, 1, 0), 1);
        assertThat(t.assignUpstream(a, null, REAL)).isTrue();
        t.addClient(a);
        a.answered = true;
        t.answered(a, 1);
        Transaction<?> b = t.newTransaction(client, 2, 0, TransactionTable.clientKey(client, 2, 0), 2);
        Transaction<?> c = t.newTransaction(client, 3, 0, TransactionTable.clientKey(client, 3, 0), 3);
        assertThat(t.assignUpstream(b, null, REAL)).isTrue();
        assertThat(t.assignUpstream(c, null, REAL)).as("takes a's id over").isTrue();
        assertThat(a.done).isTrue();
        Transaction<?> d = t.newTransaction(client, 4, 0, TransactionTable.clientKey(client, 4, 0), 4);
        assertThat(d).as("a is still in both queues").isNotSameAs(a);
        assertThat(t.oldestPending()).as("a answered: dropped from the pending order").isNull();
        assertThat(t.oldestAnswered()).as("a forgotten: dropped from the answered order").isNull();
        Transaction<?> e = t.newTransaction(client, 5, 0, TransactionTable.clientKey(client, 5, 0), 5);
        assertThat(e).as("named by no queue now: reused").isSameAs(a);
        assertThat(e.originalId).isEqualTo(5);
        assertThat(e.done).isFalse();
    }

    @Test
    void aReusedTransactionsStateGoesBackToTheInspectorOnceAndOnlyThen() {
        java.util.List<Object> retired = new java.util.ArrayList<>();
        TransactionTable t = new TransactionTable(16, 1, false, retired::add);
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000);
        Object firstState = new Object();
        Transaction<Object> a = cast(t.newTransaction(client, 1, 0, TransactionTable.clientKey(client, 1, 0), 1));
        a.state = firstState;
        assertThat(t.assignUpstream(a, null, REAL)).isTrue();
        t.addClient(a);
        a.answered = true;
        t.answered(a, 1);
        t.removeOldestPending();
        t.removeOldestAnswered();
        assertThat(retired).as("forgotten but not yet reused: the relay may still read it").isEmpty();
        assertThat(a.state()).isSameAs(firstState);

        Transaction<Object> b = cast(t.newTransaction(client, 2, 0, TransactionTable.clientKey(client, 2, 0), 2));
        assertThat(b).isSameAs(a);
        assertThat(retired).containsExactly(firstState);
        assertThat(b.state()).isNull();
        Transaction<?> c = t.newTransaction(client, 3, 0, TransactionTable.clientKey(client, 3, 0), 3);
        assertThat(c).as("b is live: a new object").isNotSameAs(b);
        assertThat(retired).as("a state is handed back once").hasSize(1);
    }

    @Test
    void aRequestDroppedBeforeItWasAddedGivesItsObjectBackAndADroppedSurplusItsSlot() {
        java.util.List<Object> retired = new java.util.ArrayList<>();
        TransactionTable t = new TransactionTable(16, 1, false, retired::add);
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 10_000);
        for (int i = 0; i < 1_000; i++) {
            // every request finds no real: the relay drops it before addClient
            Transaction<Object> x = cast(t.newTransaction(client, i, 0, TransactionTable.clientKey(client, i, 0), i));
            x.state = "state " + i;
            t.abandon(x);
        }
        assertThat(t.created()).as("one object serves every dropped request").isEqualTo(1);
        assertThat(retired).as("each state goes back when its object is reused").hasSize(999);
        assertThat(t.size()).isZero();

        // a burst past MAX_FREE: the surplus objects go, their slots serve new ones, and the maps
        // still find each live transaction by its own slot
        int burst = TransactionTable.MAX_FREE + 100;
        java.util.List<Transaction<?>> live = new java.util.ArrayList<>();
        TransactionTable wide = new TransactionTable(32);
        for (int i = 0; i < burst; i++) {
            Transaction<?> x = tx(wide, i);
            assertThat(wide.assignUpstream(x, null, REAL)).isTrue();
            wide.addClient(x);
            live.add(x);
        }
        while (wide.oldestPending() != null) {
            wide.removeOldestPending();
        }
        long made = wide.created();
        for (int i = 0; i < burst; i++) {
            Transaction<?> x = tx(wide, burst + i);
            assertThat(wide.assignUpstream(x, null, REAL)).isTrue();
            wide.addClient(x);
            assertThat(wide.byUpstream(REAL, x.upstreamId)).isSameAs(x);
            assertThat(wide.byClient(x.clientKey, x.client, burst + i, 0)).isSameAs(x);
        }
        assertThat(wide.created() - made).as("objects made again for the dropped surplus only").isEqualTo(100);
    }

    @SuppressWarnings("unchecked")
    private static Transaction<Object> cast(Transaction<?> tx) {
        return (Transaction<Object>) tx;
    }
}
