package io.mclb.perf.radius;

import io.netty.util.collection.LongObjectHashMap;
import java.lang.management.ManagementFactory;

/**
 * Thread CPU time per removal from a Netty {@code LongObjectHashMap} holding 250,000 framed-IP
 * entries of one pool (group 2, 10.64.0.0 + k), keyed as is and multiplied by the golden ratio as
 * {@code FramedIpIndex} now stores them: linear probing makes a run of consecutive keys one
 * cluster, and each removal shifts the rest of it. Run: {@code java -cp perf/target/benchmarks.jar
 * io.mclb.perf.radius.FramedIpIndexProbe}.
 */
public final class FramedIpIndexProbe {
    private FramedIpIndexProbe() {
    }

    public static void main(String[] a) {
        var t = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            for (boolean mix : new boolean[] {false, true}) {
                LongObjectHashMap<Boolean> m = new LongObjectHashMap<>();
                int n = 250_000;
                for (int k = 0; k < n; k++) {
                    long e = (2L << 32) | ((0x0A400000 + k) & 0xffffffffL);
                    m.put(mix ? e * 0x9E3779B97F4A7C15L : e, Boolean.TRUE);
                }
                int r = 5_000;
                long c0 = t.getCurrentThreadCpuTime();
                for (int k = 0; k < r; k++) {
                    long e = (2L << 32) | ((0x0A400000 + k) & 0xffffffffL);
                    m.remove(mix ? e * 0x9E3779B97F4A7C15L : e);
                }
                long c1 = t.getCurrentThreadCpuTime();
                System.out.printf("round %d %s: %.0f ns per remove (%d entries)%n", round, mix ? "mixed" : "as is", (c1 - c0) / (double) r, m.size());
            }
        }
    }
}
