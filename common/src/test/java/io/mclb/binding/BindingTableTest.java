package io.mclb.binding;

import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-subscriber binding life cycle every module shares: one connection held per binding, released once. */
class BindingTableTest {
    private static final BindingKind<Binding> KIND = BindingKind.of("test-binding");

    private static final class TestBinding extends Binding {
        TestBinding(long owner, int sub, RealServer real, long alias, long nowNs, long idleNs) {
            super(owner, sub, real, alias, nowNs, idleNs);
        }
    }

    private static RealServer real(String ip) {
        RealServer r = new RealServer("F", RealConfigs.real(ip, 8), new ManualClock(), null);
        return r;
    }

    /** A real holding one connection per binding, as the engine leaves it on FORWARD_SESSION. */
    private static TestBinding bind(BindingTable<Binding> t, long owner, int sub, RealServer r, long alias, long idleNs) {
        assertThat(r.tryAcquire(0, false)).isTrue();
        TestBinding b = new TestBinding(owner, sub, r, alias, 0, idleNs);
        t.open(b);
        return b;
    }

    @Test
    void aBindingHoldsOneConnectionThatExactlyOneEndReleases() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        TestBinding b = bind(t, 7, 5, a, 0x1234, 1_000);
        assertThat(t.get(7, 5)).isSameAs(b);
        assertThat(t.byAlias(0x1234)).isSameAs(b);
        assertThat(a.activeConnections()).isEqualTo(1);
        assertThat(t.close(b)).isTrue();
        assertThat(t.close(b)).as("a second end releases nothing").isFalse();
        assertThat(a.activeConnections()).isZero();
        assertThat(t.byAlias(0x1234)).isNull();
    }

    @Test
    void reopeningAKeyEndsThePreviousBindingAndAliasCollisionsAreCounted() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        RealServer b = real("10.0.0.2");
        bind(t, 7, 5, a, 0x10, 1_000);
        bind(t, 7, 5, b, 0x11, 1_000);
        assertThat(a.activeConnections()).as("re-created elsewhere: the first real's hold is released").isZero();
        assertThat(t.size()).isEqualTo(1);
        bind(t, 8, 5, a, 0x11, 1_000);
        assertThat(t.aliasCollisions()).as("alias 0x11 learnt from two reals").isEqualTo(1);
        assertThat(t.byAlias(0x11).owner()).as("last writer wins").isEqualTo(8);
    }

    @Test
    void idleBindingsExpireTouchedOnesLiveAndPurgeEndsOneRealsBindings() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        RealServer b = real("10.0.0.2");
        TestBinding idle = bind(t, 1, 0, a, 0, 1_000);
        TestBinding busy = bind(t, 2, 0, a, 0, 1_000);
        bind(t, 3, 0, b, 0, 1_000_000);
        busy.touch(900);
        assertThat(t.expire(1_000)).isEqualTo(1);
        assertThat(t.get(1, 0)).isNull();
        assertThat(t.get(2, 0)).isSameAs(busy);
        assertThat(t.perReal()).containsEntry(a.id(), 1).containsEntry(b.id(), 1);
        assertThat(t.purge(b.id())).isEqualTo(1);
        assertThat(b.activeConnections()).isZero();
        assertThat(t.closeOwner(2, a.id())).isEqualTo(1);
        assertThat(a.activeConnections()).isZero();
        assertThat(idle.real()).isSameAs(a);
    }

    @Test
    void aReplicatedBindingHoldsItsRealsConnectionOnceAndKeepsTheActivesRemainingTime() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        t.openReplicated(new TestBinding(7, 5, a, 0x77, 0, 1_000), 0, 300);
        t.openReplicated(new TestBinding(7, 5, a, 0x77, 0, 1_000), 100, 300);
        assertThat(a.activeConnections()).as("the same binding again is a refresh, not a second hold").isEqualTo(1);
        assertThat(t.expire(399)).isZero();
        assertThat(t.expire(400)).as("remaining 300 from the refresh at 100").isEqualTo(1);
        assertThat(a.activeConnections()).isZero();
    }

    @Test
    void theAgerResendsBindingsWhoseExpiryRequestsMovedAndOnlyThose() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        java.util.List<String> events = new java.util.ArrayList<>();
        t.listener(new BindingTable.ChangeListener() {
            @Override
            public void opened(BindingTable<?> table, Binding b) {
                events.add("open " + b.owner());
            }

            @Override
            public void closed(BindingTable<?> table, Binding b) {
                events.add("close " + b.owner());
            }
        });
        RealServer a = real("10.0.0.1");
        long idle = 80_000_000_000L;
        TestBinding busy = bind(t, 1, 0, a, 0, idle);
        bind(t, 2, 0, a, 0, idle);
        busy.touch(20_000_000_000L);
        t.expire(20_000_000_000L);
        t.expire(21_000_000_000L);
        t.expire(80_000_000_000L);
        assertThat(events).containsExactly("open 1", "open 2", "open 1", "close 2");
    }

    /** Renews {@code b} in place for a new context under {@code alias}, as a module does for an accepted re-create. */
    private static void renew(BindingTable<Binding> t, Binding b, long alias, long nowNs) {
        assertThat(t.startRenewal(b)).isTrue();
        t.finishRenewal(b, alias, nowNs);
    }

    @Test
    void aRenewedBindingIsNeverEndedOnBehalfOfTheContextItNoLongerStandsFor() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        java.util.List<String> events = new java.util.ArrayList<>();
        t.listener(new BindingTable.ChangeListener() {
            @Override
            public void opened(BindingTable<?> table, Binding b) {
                events.add("open " + Long.toHexString(b.alias()));
            }

            @Override
            public void closed(BindingTable<?> table, Binding b) {
                events.add("close " + Long.toHexString(b.alias()));
            }
        });
        RealServer a = real("10.0.0.1");
        TestBinding b = bind(t, 7, 5, a, 0x10, 1_000);
        int oldContext = b.generation();
        renew(t, b, 0x20, 500);
        assertThat(b.generation()).isNotEqualTo(oldContext);
        assertThat(t.close(b, oldContext)).as("a delete of the old context, answered late").isFalse();
        assertThat(t.get(7, 5)).isSameAs(b);
        assertThat(t.byAlias(0x10)).isNull();
        assertThat(t.byAlias(0x20)).isSameAs(b);
        assertThat(a.activeConnections()).as("still the one connection it held").isEqualTo(1);
        assertThat(t.expire(1_000)).as("idle from the renewal at 500, not from the open at 0").isZero();
        assertThat(t.close(b, b.generation())).isTrue();
        assertThat(a.activeConnections()).isZero();
        assertThat(t.byAlias(0x20)).isNull();
        assertThat(t.startRenewal(b)).as("an ended binding is never renewed").isFalse();
        assertThat(events).containsExactly("open 10", "open 20", "close 20");
    }

    @Test
    void aPurgeRacingARenewalTestsTheNewContextBeforeEndingIt() {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        TestBinding b = bind(t, 7, 5, a, 0x10, 1_000);
        int[] tests = {0};
        // the renewal lands between the walk's test and its end, as another loop's accepted re-create can
        int n = t.closeIf(x -> {
            boolean selected = x.alias() == 0x10;
            if (tests[0]++ == 0) {
                renew(t, x, 0x20, 0);
            }
            return selected;
        });
        assertThat(n).as("the context it selected is gone; the renewed one does not match").isZero();
        assertThat(tests[0]).isEqualTo(2);
        assertThat(t.get(7, 5)).isSameAs(b);
        assertThat(a.activeConnections()).isEqualTo(1);
    }

    @Test
    void aRenewalUnderWayHoldsOffEveryEndAndAReopenEndsTheRenewedBindingOnce() throws Exception {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        TestBinding b = bind(t, 7, 5, a, 0x10, 1_000);
        assertThat(t.startRenewal(b)).isTrue();
        assertThat(t.startRenewal(b)).as("one renewal at a time").isFalse();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CompletableFuture<Boolean> closing = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            started.countDown();
            return t.close(b); // a purge on the ager's thread
        });
        assertThat(started.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(100))
                .atMost(java.time.Duration.ofSeconds(5)).until(() -> !closing.isDone() && t.get(7, 5) == b);
        t.finishRenewal(b, 0x20, 0);
        assertThat(closing.get(5, java.util.concurrent.TimeUnit.SECONDS)).as("the close ends the renewed binding")
                .isTrue();
        assertThat(t.size()).isZero();
        assertThat(t.byAlias(0x20)).isNull();
        assertThat(a.activeConnections()).isZero();

        TestBinding c = bind(t, 8, 5, a, 0x30, 1_000);
        renew(t, c, 0x31, 0);
        TestBinding d = bind(t, 8, 5, a, 0x32, 1_000);
        assertThat(t.get(8, 5)).isSameAs(d);
        assertThat(c.generation()).isEqualTo(Binding.ENDED);
        assertThat(t.byAlias(0x31)).isNull();
        assertThat(a.activeConnections()).as("the renewed binding's hold released once, the new one's kept").isEqualTo(1);
        assertThat(t.close(c)).isFalse();
    }

    @Test
    void theAgerWalksATableEverySixteenthOfItsShortestIdleTimeBetweenOneAndTenSeconds() {
        long s = 1_000_000_000L;
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        bind(t, 1, 5, a, 0, 3600 * s);
        assertThat(t.walkDue(0)).as("the first tick walks").isTrue();
        assertThat(t.walkDue(9 * s)).as("an hour's idle time: walked every ten seconds").isFalse();
        assertThat(t.walkDue(10 * s)).isTrue();
        bind(t, 2, 5, a, 0, 32 * s);
        assertThat(t.walkDue(19 * s)).as("the walk already planned stands").isFalse();
        assertThat(t.walkDue(20 * s)).isTrue();
        assertThat(t.walkDue(21 * s)).as("32 s idle: every 2 s").isFalse();
        assertThat(t.walkDue(22 * s)).isTrue();
        bind(t, 3, 5, a, 0, 4 * s);
        assertThat(t.walkDue(24 * s)).isTrue();
        assertThat(t.walkDue(24 * s + s / 2)).as("never more often than every second").isFalse();
        assertThat(t.walkDue(25 * s)).isTrue();
    }

    @Test
    void readersByAliasNeverSeeAWrongBindingWhileALoopRenewsOthers() throws Exception {
        BindingTable<Binding> t = new BindingTable<>(KIND);
        RealServer a = real("10.0.0.1");
        int stable = 1_000;
        int renewing = 5_000;
        Binding[] fixed = new Binding[stable];
        for (int i = 0; i < stable; i++) {
            fixed[i] = t.open(new TestBinding(1_000_000 + i, 5, a, 0x1_0000_0000L + i, 0, 1_000));
        }
        Binding[] churned = new Binding[renewing];
        for (int i = 0; i < renewing; i++) {
            churned[i] = t.open(new TestBinding(i, 5, a, 1 + i, 0, 1_000));
        }
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CompletableFuture<Long> reader = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            java.util.SplittableRandom r = new java.util.SplittableRandom(3);
            long reads = 0;
            while (!stop.get()) {
                int i = r.nextInt(stable);
                if (t.byAlias(0x1_0000_0000L + i) != fixed[i]) {
                    throw new AssertionError("stable alias " + i + " lost");
                }
                long alias = 1 + r.nextInt(renewing * 40);
                Binding seen = t.byAlias(alias);
                // churned[j] holds 1 + j, then 1 + j + renewing, ...: the binding an alias names is
                // known, and it may have been renewed past the alias since it was returned
                long now = seen == null ? 0 : seen.alias();
                if (seen != null && (seen != churned[(int) ((alias - 1) % renewing)] || now < alias)) {
                    throw new AssertionError("alias " + alias + " gave a binding that never held it (now under " + now + ")");
                }
                reads++;
            }
            return reads;
        });
        long next = renewing + 1;
        for (int round = 0; round < 30; round++) {
            for (Binding b : churned) {
                assertThat(t.startRenewal(b)).isTrue();
                t.finishRenewal(b, next++, 0);
            }
        }
        stop.set(true);
        assertThat(reader.get(60, java.util.concurrent.TimeUnit.SECONDS)).isPositive();
        for (Binding b : churned) {
            assertThat(t.byAlias(b.alias())).isSameAs(b);
        }
        assertThat(t.byAlias(1)).as("the first context's alias routes nowhere").isNull();
        assertThat(t.aliasCollisions()).isZero();
    }
}
