package io.mclb.perf.gtp.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CauseMixTest {
    @Test
    void parsesWeightsAndDrawsInProportion() {
        CauseMix mix = CauseMix.parse("128:95, 199:5");
        assertThat(mix.toString()).isEqualTo("128:95,199:5");
        Random r = new Random(7);
        int rejects = 0;
        for (int i = 0; i < 100_000; i++) {
            int c = mix.pick(r);
            assertThat(c).isIn(128, 199);
            rejects += c == 199 ? 1 : 0;
        }
        assertThat(rejects).isBetween(4_500, 5_500);
    }

    @Test
    void mapsV1CausesToV2() {
        assertThat(CauseMix.parse("128:1,199:1,204:1,211:1,212:1,210:1,193:1").toV2().toString())
                .isEqualTo("16:1,73:1,72:1,84:1,91:1,64:1,94:1");
        assertThat(CauseMix.fixed(128).pick(new Random())).isEqualTo(128);
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> CauseMix.parse("128:x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CauseMix.parse("300:1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CauseMix.parse("128:0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CauseMix.parse("128:-1")).isInstanceOf(IllegalArgumentException.class);
    }
}
