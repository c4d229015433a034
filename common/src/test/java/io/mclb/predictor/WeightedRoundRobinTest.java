package io.mclb.predictor;

import io.mclb.config.PredictorKind;
import io.mclb.config.ServerFarmConfig;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealStateListener;
import io.mclb.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeightedRoundRobinTest {
    private final ManualClock clock = new ManualClock();
    private final long now = clock.nanoTime();
    private final WeightedRoundRobin wrr = new WeightedRoundRobin();

    private RealServer[] reals(int... weights) {
        RealServer[] r = new RealServer[weights.length];
        for (int i = 0; i < weights.length; i++) {
            r[i] = new RealServer("f", RealConfigs.real("192.0.2." + (i + 1), weights[i]), clock, RealStateListener.NONE);
        }
        return r;
    }

    private String sequence(RealServer[] reals, int count, RealServer exclude) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < count; c++) {
            int i = wrr.choose(reals, c, now, exclude, false);
            sb.append(i < 0 ? '-' : (char) ('A' + i));
        }
        return sb.toString();
    }

    @Test
    void iosOrderForWeights312() {
        assertThat(sequence(reals(3, 1, 2), 12, null)).isEqualTo("AAABCCAAABCC");
    }

    @Test
    void sixHundredPicksFollowTheWeights() {
        RealServer[] r = reals(3, 1, 2);
        int[] counts = new int[3];
        for (int c = 0; c < 600; c++) {
            counts[wrr.choose(r, c, now, null, false)]++;
        }
        assertThat(counts).containsExactly(300, 100, 200);
    }

    @Test
    void largeFarmUsesCachedPrefixSumsAndSeesWeightChanges() {
        int[] w = new int[128];
        long total = 0;
        for (int i = 0; i < w.length; i++) {
            w[i] = 1 + (i * 37) % 65535;
            total += w[i];
        }
        RealServer[] r = reals(w);
        // Each real owns positions [prefix, prefix + w): check both ends of every range.
        long prefix = 0;
        for (int i = 0; i < w.length; i++) {
            assertThat(wrr.choose(r, prefix, now, null, false)).isEqualTo(i);
            prefix += w[i];
            assertThat(wrr.choose(r, prefix - 1, now, null, false)).isEqualTo(i);
        }
        assertThat(wrr.choose(r, total, now, null, false)).isZero();
        r[0].setDfpWeight(0);
        assertThat(wrr.choose(r, 0, now, null, false)).isEqualTo(1);
    }

    @Test
    void weightZeroIsNeverChosen() {
        RealServer[] r = reals(2, 0, 1);
        assertThat(sequence(r, 6, null)).isEqualTo("AACAAC");
        RealServer[] none = reals(0, 0);
        assertThat(wrr.choose(none, 0, now, null, false)).isEqualTo(-1);
    }

    @Test
    void ineligibleRealsAreSkippedInOrder() {
        RealServer[] r = reals(3, 1, 2);
        r[1].fail(now, "test");
        assertThat(sequence(r, 6, null)).isEqualTo("AAACCC");
        r[0].setProbeFailed(true);
        r[2].setProbeFailed(true);
        assertThat(sequence(r, 3, null)).isEqualTo("---");
    }

    @Test
    void excludeIsHonoured() {
        RealServer[] r = reals(3, 1, 2);
        assertThat(sequence(r, 6, r[0])).isEqualTo("BBBBCC");
        RealServer[] one = reals(1);
        assertThat(wrr.choose(one, 0, now, one[0], false)).isEqualTo(-1);
    }

    @Test
    void routeMapIsAPredictorLikeTheOthers() {
        // the route map moved from the radius module into the engine (the engine-seam issue)
        ServerFarmConfig rr = new ServerFarmConfig("F", PredictorKind.ROUNDROBIN, null, false, List.of(), List.of(), null);
        ServerFarmConfig wlc = new ServerFarmConfig("F", PredictorKind.LEASTCONNS, null, false, List.of(), List.of(), null);
        ServerFarmConfig map = new ServerFarmConfig("F", PredictorKind.ROUTE_MAP, "CSG", false, List.of(), List.of(), null);
        assertThat(Predictor.of(rr, RouteMaps.EMPTY)).isInstanceOf(WeightedRoundRobin.class);
        assertThat(Predictor.of(wlc, RouteMaps.EMPTY)).isInstanceOf(WeightedLeastConns.class);
        assertThat(Predictor.of(map, RouteMaps.EMPTY)).isInstanceOf(RouteMapPredictor.class)
                .matches(Predictor::keyed, "keyed");
    }
}
