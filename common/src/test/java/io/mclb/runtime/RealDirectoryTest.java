package io.mclb.runtime;

import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every real by id: reads by primitive id; a reload's removal of an old object keeps its replacement. */
class RealDirectoryTest {
    private static RealServer real(String farm, String ip) {
        return new RealServer(farm, RealConfigs.real(ip, 8), new ManualClock(), null);
    }

    @Test
    void realsAreFoundByIdUntilRemoved() {
        RealDirectory d = new RealDirectory();
        RealServer a = real("F", "10.0.0.1");
        RealServer b = real("F", "10.0.0.2");
        d.put(a);
        d.put(b);
        assertThat(d.get(a.id())).isSameAs(a);
        assertThat(d.get(b.id())).isSameAs(b);
        assertThat(d.get(a.id() + b.id())).isNull();
        assertThat(d.all()).containsExactlyInAnyOrder(a, b);

        RealServer a2 = real("F", "10.0.0.1"); // a reload's new object for the same real (same id)
        assertThat(a2.id()).isEqualTo(a.id());
        d.put(a2);
        d.remove(a); // the old object's removal must not take its replacement
        assertThat(d.get(a.id())).isSameAs(a2);
        d.remove(a2);
        assertThat(d.get(a.id())).isNull();
        assertThat(d.all()).containsExactly(b);
    }
}
