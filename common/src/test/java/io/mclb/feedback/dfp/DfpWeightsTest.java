package io.mclb.feedback.dfp;

import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which reals a reported weight reaches, and what happens when its agent goes away. */
class DfpWeightsTest {
    private static final int GGSN1 = 0x0a14010b;

    private static RealServer real(String farm, String ip, int weight) {
        return new RealServer(farm, RealConfigs.real(ip, weight), new ManualClock(), null);
    }

    @Test
    void aWeightReachesTheRealInEveryFarmOfItsBindIdOnMatchingPortAndProtocol() {
        RealServer inA = real("A", "10.20.1.11", 8);
        RealServer inB = real("B", "10.20.1.11", 8);
        RealServer otherBind = real("C", "10.20.1.11", 8);
        DfpWeights w = new DfpWeights();
        w.retarget(List.of(new DfpWeights.Target(inA, GGSN1, new int[] {2123}, 0),
                new DfpWeights.Target(inB, GGSN1, new int[] {2123, 3386}, 0),
                new DfpWeights.Target(otherBind, GGSN1, new int[] {2123}, 7)));

        assertThat(w.apply("a1", List.of(new HostWeight(GGSN1, 0, 0, 0, 20)), 0)).isZero();
        assertThat(inA.operWeight()).isEqualTo(20);
        assertThat(inB.operWeight()).isEqualTo(20);
        assertThat(otherBind.operWeight()).as("bind ID 7 farm").isEqualTo(8);

        w.apply("a1", List.of(new HostWeight(GGSN1, 3386, 17, 0, 5)), 0);
        assertThat(inB.operWeight()).as("port 3386 reaches only the farm serving it").isEqualTo(5);
        assertThat(inA.operWeight()).isEqualTo(20);

        assertThat(w.apply("a1", List.of(new HostWeight(GGSN1, 2123, 6, 0, 1),
                new HostWeight(0x0a14010c, 0, 0, 0, 1), new HostWeight(GGSN1, 0, 0, 7, 0)), 0))
                .as("TCP and an unknown host match nothing").isEqualTo(2);
        assertThat(otherBind.state()).isEqualTo(RealState.DFP_THROTTLED);
    }

    @Test
    void theLatestAgentWinsAndAGoneAgentLeavesTheOthersWeightOrTheStaticOne() {
        RealServer r = real("A", "10.20.1.11", 8);
        DfpWeights w = new DfpWeights();
        w.retarget(List.of(new DfpWeights.Target(r, GGSN1, new int[] {2123}, 0)));
        w.apply("a1", List.of(new HostWeight(GGSN1, 0, 0, 0, 30)), 1);
        w.apply("a2", List.of(new HostWeight(GGSN1, 0, 0, 0, 0)), 2);
        assertThat(r.operWeight()).isZero();
        w.forget("a2");
        assertThat(r.operWeight()).as("a1's weight again").isEqualTo(30);
        w.forget("a1");
        assertThat(r.operWeight()).as("static").isEqualTo(8);
        assertThat(r.dfpWeight()).isEqualTo(-1);
        assertThat(w.rows()).isEmpty();
    }

    @Test
    void retargetGivesNewRealsTheReportedWeightAndReleasesRealsNoLongerReached() {
        RealServer before = real("A", "10.20.1.11", 8);
        DfpWeights w = new DfpWeights();
        w.retarget(List.of(new DfpWeights.Target(before, GGSN1, new int[] {2123}, 0)));
        w.apply("a1", List.of(new HostWeight(GGSN1, 0, 0, 0, 3)), 1);
        RealServer added = real("NEW", "10.20.1.11", 8);
        w.retarget(List.of(new DfpWeights.Target(added, GGSN1, new int[] {2123}, 0),
                new DfpWeights.Target(before, GGSN1, new int[] {2123}, 4)));
        assertThat(added.operWeight()).as("a real added by a reload").isEqualTo(3);
        assertThat(before.operWeight()).as("its farm took bindid 4").isEqualTo(8);
        assertThat(w.rows()).singleElement().satisfies(row -> {
            assertThat(row.agent()).isEqualTo("a1");
            assertThat(row.reals()).isEqualTo(1);
        });
    }
}
