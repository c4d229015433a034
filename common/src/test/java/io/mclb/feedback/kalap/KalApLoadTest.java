package io.mclb.feedback.kalap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The IOS SLB KAL-AP formulas with the feature guide's own examples, and their edges. */
class KalApLoadTest {
    @Test
    void relativeLoadOfTheGuidesExampleAndItsEdges() {
        assertThat(KalApLoad.relative(1, 2)).as("guide: 256 - 1 x 256 / 2").isEqualTo(128);
        assertThat(KalApLoad.relative(2, 2)).isZero();
        assertThat(KalApLoad.relative(2, 3)).as("integer order: 256 - 512/3").isEqualTo(86);
        assertThat(KalApLoad.relative(0, 2)).as("none active: offline").isEqualTo(KalApLoad.OFFLINE);
        assertThat(KalApLoad.relative(0, 0)).as("none in service").isEqualTo(KalApLoad.OFFLINE);
        assertThat(KalApLoad.relative(1, 255)).as("clamped to 255").isEqualTo(255);
    }

    @Test
    void absoluteLoadOfTheGuidesExampleAndItsEdges() {
        assertThat(KalApLoad.absolute(100 + 50, 200)).as("guide: 256 - 150 x 256 / 200").isEqualTo(64);
        assertThat(KalApLoad.absolute(200, 200)).isZero();
        assertThat(KalApLoad.absolute(400, 200)).as("more than farm-weight clamps to 0").isZero();
        assertThat(KalApLoad.absolute(0, 200)).as("nothing up: offline").isEqualTo(KalApLoad.OFFLINE);
        assertThat(KalApLoad.absolute(8, 16)).isEqualTo(128);
        assertThatThrownBy(() -> KalApLoad.absolute(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
