package io.mclb.select;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyTables;
import io.mclb.testing.TestStickyKinds;
import io.mclb.time.ManualClock;
import io.mclb.vserver.VserverSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The one "choose a real" step: sticky across farms, keyed predictor first, one decision per new subscriber. */
class RealSelectorTest {
    @TempDir
    Path dir;
    private StickyTable sticky;
    private final ManualClock clock = new ManualClock();

    @AfterEach
    void close() {
        if (sticky != null) {
            sticky.close();
        }
    }

    private VserverSnapshot snapshot(ServerFarm farm, ServerFarm backup) throws Exception {
        MclbConfig c = ConfigParser.parse("t.cfg", "ip slb serverfarm " + farm.name() + "\n real 10.0.0.1\n"
                + "ip slb vserver V\n virtual 10.0.0.100 udp 9\n serverfarm " + farm.name() + "\n sticky 60\n inservice\n",
                dir, List.of());
        return new VserverSnapshot(c.vservers().get("V"), farm, backup);
    }

    private static ServerFarm farm(String name, int... weights) {
        io.mclb.config.RealConfig[] reals = new io.mclb.config.RealConfig[weights.length];
        for (int i = 0; i < weights.length; i++) {
            reals[i] = RealConfigs.real("10.0.1." + (i + 1), weights[i]);
        }
        return new ServerFarm(new io.mclb.config.ServerFarmConfig(name, io.mclb.config.PredictorKind.ROUNDROBIN, null,
                false, List.of(reals), List.of(), null), new ManualClock(), null);
    }

    private static Selection subscriber(Selection s, int i) {
        s.reset().stickyKey().set(TestStickyKinds.RADIUS_USERNAME, 1, ("sub-" + i).getBytes(StandardCharsets.US_ASCII));
        return s.sticky(60, StickyMode.ON_ASSIGN);
    }

    /**
     * Two event loops see the first request of each of 600 new subscribers at the same moment (two
     * source ports of one NAS hashed to two listener sockets): each subscriber must take exactly
     * one predictor decision, so weights 3,1,2 split the subscribers exactly 300/100/200 as IOS
     * documents, and both requests of a subscriber reach the same real.
     */
    @Test
    void aSubscriberRacingOnTwoLoopsTakesExactlyOneDecision() throws Exception {
        sticky = StickyTables.open(dir.resolve("data"), 10_000);
        ServerFarm farm = farm("F", 3, 1, 2);
        VserverSnapshot s = snapshot(farm, null);
        SubscriberClaims claims = new SubscriberClaims();
        int subscribers = 600;
        RealServer[][] chosen = new RealServer[2][subscribers];
        CyclicBarrier together = new CyclicBarrier(2);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread[] loops = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int me = t;
            loops[t] = new Thread(() -> {
                RealSelector selector = new RealSelector(sticky, id -> null, claims);
                Selection sel = new Selection();
                try {
                    for (int i = 0; i < subscribers; i++) {
                        together.await();
                        RealServer r = selector.select(s, subscriber(sel, i), null, clock.nanoTime(),
                                clock.epochMillis());
                        chosen[me][i] = r;
                        r.release();
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "loop-" + t);
            loops[t].start();
        }
        for (Thread t : loops) {
            t.join(60_000);
        }
        assertThat(failed.get()).isNull();
        Map<String, Integer> split = new HashMap<>();
        for (int i = 0; i < subscribers; i++) {
            assertThat(chosen[1][i]).as("subscriber %d on both loops", i).isSameAs(chosen[0][i]);
            split.merge(chosen[0][i].label(), 1, Integer::sum);
        }
        assertThat(split).containsEntry("10.0.1.1", 300).containsEntry("10.0.1.2", 100).containsEntry("10.0.1.3", 200);
    }

    @Test
    void anEntryWrittenThroughAnotherFarmFindsTheRealWithTheSameAddressAndKeepsItsOwnId() throws Exception {
        sticky = StickyTables.open(dir.resolve("data"), 10_000);
        ServerFarm auth = farm("AUTH", 1, 1);
        ServerFarm acct = farm("ACCT", 1, 1);
        Map<Long, RealServer> all = new HashMap<>();
        for (ServerFarm f : List.of(auth, acct)) {
            for (RealServer r : f.reals()) {
                all.put(r.id(), r);
            }
        }
        SubscriberClaims claims = new SubscriberClaims();
        RealSelector selector = new RealSelector(sticky, all::get, claims);
        Selection sel = new Selection();
        RealServer a = selector.select(snapshot(auth, null), subscriber(sel, 1), null, 0, clock.epochMillis());
        RealServer b = selector.select(snapshot(acct, null), subscriber(sel, 1), null, 0, clock.epochMillis() + 5000);
        assertThat(b.farmName()).isEqualTo("ACCT");
        assertThat(b.address()).isEqualTo(a.address());
        io.mclb.sticky.StickyValue v = new io.mclb.sticky.StickyValue();
        assertThat(sticky.get(subscriber(sel, 1).stickyKey(), v, clock.epochMillis())).isTrue();
        assertThat(v.realId()).as("the entry still names the auth farm's real").isEqualTo(a.id());
    }

    /**
     * A GTP create's IMSI entry ({@code ON_ANSWER}) is written once per create, by the accepting
     * answer: the request only reads it, so a create the GGSN rejects does not extend it either.
     */
    @Test
    void anOnAnswerEntryIsReadByTheRequestAndRefreshedOnlyByTheAcceptingAnswer() throws Exception {
        sticky = StickyTables.open(dir.resolve("data"), 10_000);
        ServerFarm farm = farm("F", 1, 1);
        VserverSnapshot s = snapshot(farm, null);
        RealSelector selector = new RealSelector(sticky, id -> null, new SubscriberClaims());
        Selection sel = new Selection();
        long t0 = clock.epochMillis();
        RealServer first = selector.select(s, onAnswer(sel, 7), null, 0, t0);
        assertThat(sticky.get(onAnswer(sel, 7).stickyKey(), new io.mclb.sticky.StickyValue(), t0))
                .as("nothing written before the real accepted").isFalse();
        selector.write(onAnswer(sel, 7).stickyKey(), first.id(), 60, t0);
        first.release();

        RealServer again = selector.select(s, onAnswer(sel, 7), null, 0, t0 + 30_000);
        assertThat(again).isSameAs(first);
        io.mclb.sticky.StickyValue v = new io.mclb.sticky.StickyValue();
        assertThat(sticky.get(onAnswer(sel, 7).stickyKey(), v, t0 + 30_000)).isTrue();
        assertThat(v.expiresEpochSeconds()).as("the request did not extend it").isEqualTo(t0 / 1000 + 60);
        selector.write(onAnswer(sel, 7).stickyKey(), again.id(), 60, t0 + 30_000);
        assertThat(sticky.get(onAnswer(sel, 7).stickyKey(), v, t0 + 30_000)).isTrue();
        assertThat(v.expiresEpochSeconds()).as("the accepting answer did").isEqualTo((t0 + 30_000) / 1000 + 60);
        again.release();
    }

    private static Selection onAnswer(Selection s, int i) {
        s.reset().stickyKey().set(TestStickyKinds.RADIUS_USERNAME, 1, ("imsi-" + i).getBytes(StandardCharsets.US_ASCII));
        return s.sticky(60, StickyMode.ON_ANSWER);
    }

    /**
     * DFP weight 0 (DFP_THROTTLED) means no new subscriber, not "drop the ones it holds": a
     * subscriber whose sticky entry names the throttled real, and a follow-up bound to one of its
     * sessions (a GGSN's secondary PDP contexts), still reach it; a new subscriber goes elsewhere.
     */
    @Test
    void aThrottledRealKeepsItsStickySubscribersAndSessionsButTakesNoNewOne() throws Exception {
        sticky = StickyTables.open(dir.resolve("data"), 10_000);
        ServerFarm farm = farm("F", 1, 1);
        VserverSnapshot s = snapshot(farm, null);
        RealSelector selector = new RealSelector(sticky, farm::byId, new SubscriberClaims());
        Selection sel = new Selection();
        RealServer held = selector.select(s, subscriber(sel, 1), null, clock.nanoTime(), clock.epochMillis());
        held.release();
        held.setDfpWeight(0);
        assertThat(held.state()).isEqualTo(io.mclb.farm.RealState.DFP_THROTTLED);

        RealServer again = selector.select(s, subscriber(sel, 1), null, clock.nanoTime(), clock.epochMillis());
        assertThat(again).as("the sticky subscriber stays on its throttled real").isSameAs(held);
        again.release();
        RealServer followUp = selector.select(s, sel.reset().boundTo(held.id()), null, clock.nanoTime(),
                clock.epochMillis());
        assertThat(followUp).as("a follow-up of one of its sessions").isSameAs(held);
        followUp.release();
        for (int i = 2; i < 12; i++) {
            RealServer fresh = selector.select(s, subscriber(sel, i), null, clock.nanoTime(), clock.epochMillis());
            assertThat(fresh).as("new subscriber %d", i).isNotSameAs(held);
            fresh.release();
        }
        RealServer plain = selector.select(s, sel.reset(), null, clock.nanoTime(), clock.epochMillis());
        assertThat(plain).as("new work without a key").isNotSameAs(held);
    }
}
