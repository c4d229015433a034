package io.mclb.farm;

import io.mclb.config.PredictorKind;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.predictor.WeightedLeastConns;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.mclb.farm.RealConfigs.real;
import static org.assertj.core.api.Assertions.assertThat;

class ServerFarmTest {
    private final ManualClock clock = new ManualClock();

    private static ServerFarmConfig farm(PredictorKind p, RealConfig... reals) {
        return new ServerFarmConfig("GGSN", p, null, false, List.of(reals), List.of(), null);
    }

    private long now() {
        return clock.nanoTime();
    }

    @Test
    void picksInWeightedRoundRobinOrderAndAcquires() {
        ServerFarm f = new ServerFarm(farm(PredictorKind.ROUNDROBIN, real("192.0.2.1", 3), real("192.0.2.2", 1),
                real("192.0.2.3", 2)), clock, RealStateListener.NONE);
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            RealServer r = f.pickAndAcquire(now(), null, false);
            order.append(r.address().getHostAddress().charAt(8));
        }
        assertThat(order).hasToString("111233");
        assertThat(f.reals()[0].activeConnections()).isEqualTo(3);
        RealServer[] reals = f.reals();
        for (RealServer r : reals) {
            assertThat(f.byId(r.id())).isSameAs(r);
        }
        assertThat(f.byId(12345)).isNull();
    }

    @Test
    void excludeAndExhaustion() {
        RealConfig capped = real("192.0.2.1", 0, 8, 1, RealConfig.DEFAULT_MAXCLIENTS, 0, 8, 8, true, 60);
        ServerFarm f = new ServerFarm(farm(PredictorKind.LEASTCONNS, capped), clock, RealStateListener.NONE);
        RealServer only = f.reals()[0];
        assertThat(f.pickAndAcquire(now(), only, false)).isNull();
        assertThat(f.pickAndAcquire(now(), null, false)).isSameAs(only);
        assertThat(f.pickAndAcquire(now(), null, false)).as("at maxconns").isNull();
        only.release();
        assertThat(f.pickAndAcquire(now(), null, false)).isSameAs(only);
    }

    @Test
    void failedRealGetsTheTestConnectionAfterRetry() {
        ServerFarm f = new ServerFarm(farm(PredictorKind.ROUNDROBIN, real("192.0.2.1", 1), real("192.0.2.2", 1)),
                clock, RealStateListener.NONE);
        RealServer a = f.reals()[0];
        a.fail(now(), "test");
        for (int i = 0; i < 4; i++) {
            assertThat(f.pickAndAcquire(now(), null, false)).isSameAs(f.reals()[1]);
        }
        clock.advanceSeconds(60);
        RealServer first = f.pickAndAcquire(now(), null, false);
        RealServer second = f.pickAndAcquire(now(), null, false);
        assertThat(List.of(first, second)).containsExactlyInAnyOrder(a, f.reals()[1]);
        assertThat(a.state()).isEqualTo(RealState.TESTING);
    }

    @Test
    void updateKeepsRealIdentityAddsAndRemoves() {
        ServerFarm f = new ServerFarm(farm(PredictorKind.ROUNDROBIN, real("192.0.2.1", 8), real("192.0.2.2", 8)),
                clock, RealStateListener.NONE);
        RealServer a = f.reals()[0];
        RealServer b = f.reals()[1];
        a.tryAcquire(now(), false);
        a.fail(now(), "test");
        List<RealServer> removed = f.update(farm(PredictorKind.LEASTCONNS, real("192.0.2.3", 4), real("192.0.2.1", 2)));
        assertThat(removed).containsExactly(b);
        assertThat(f.reals()).hasSize(2);
        assertThat(f.reals()[1]).isSameAs(a);
        assertThat(a.state()).isEqualTo(RealState.FAILED);
        assertThat(a.activeConnections()).isEqualTo(1);
        assertThat(a.config().weight()).isEqualTo(2);
        assertThat(f.byId(b.id())).isNull();
        assertThat(f.byId(f.reals()[0].id())).isSameAs(f.reals()[0]);
        assertThat(f.config().predictor()).isEqualTo(PredictorKind.LEASTCONNS);
        assertThat(f.pickAndAcquire(now(), null, false)).isSameAs(f.reals()[0]);
        // new WLC predictor: 192.0.2.3 now has 1 conn, a is failed -> still 192.0.2.3
        assertThat(new WeightedLeastConns().choose(f.reals(), 0, now(), null, false)).isZero();
    }

    @Test
    void concurrentPickAndReleaseKeepCountsConsistent() throws Exception {
        RealConfig[] rc = new RealConfig[5];
        for (int i = 0; i < rc.length; i++) {
            rc[i] = real("192.0.2." + (i + 1), 0, i + 1, 3, RealConfig.DEFAULT_MAXCLIENTS, 0, 8, 8, true, 60);
        }
        ServerFarm f = new ServerFarm(farm(PredictorKind.ROUNDROBIN, rc), clock, RealStateListener.NONE);
        int perThread = 100_000;
        AtomicLong misses = new AtomicLong();
        AtomicLong overCap = new AtomicLong();
        CyclicBarrier start = new CyclicBarrier(2);
        Runnable worker = () -> {
            try {
                start.await();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < perThread; i++) {
                RealServer r = f.pickAndAcquire(clock.nanoTime(), null, false);
                if (r == null) {
                    misses.incrementAndGet();
                    continue;
                }
                if (r.activeConnections() > 3) {
                    overCap.incrementAndGet();
                }
                r.release();
            }
        };
        CompletableFuture<Void> t1 = CompletableFuture.runAsync(worker);
        CompletableFuture<Void> t2 = CompletableFuture.runAsync(worker);
        CompletableFuture.allOf(t1, t2).get(60, TimeUnit.SECONDS);
        long assigned = 0;
        for (RealServer r : f.reals()) {
            assertThat(r.activeConnections()).isZero();
            assigned += r.assignments();
        }
        assertThat(misses.get()).as("two threads never exhaust 15 slots").isZero();
        assertThat(assigned).isEqualTo(2L * perThread);
        assertThat(overCap.get()).isZero();
    }
}
