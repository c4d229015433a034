package io.mclb.testing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Reads counters from a runtime's registry in tests. */
public final class Metrics {
    private Metrics() {
    }

    /** Sum of the counter {@code name} over series carrying all the given tag pairs. */
    public static double count(MeterRegistry r, String name, String... tags) {
        double sum = 0;
        for (Counter c : r.find(name).tags(tags).counters()) {
            sum += c.count();
        }
        return sum;
    }
}
