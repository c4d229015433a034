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

    /**
     * The value of one series in Prometheus text, named exactly as a scraper sees it (labels in
     * Micrometer's order, alphabetical), e.g. {@code mclb_drops_total{reason="malformed",vserver="V"}};
     * NaN when the scrape has no such series.
     */
    public static double sample(String exposition, String series) {
        for (String line : exposition.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return Double.NaN;
    }
}
