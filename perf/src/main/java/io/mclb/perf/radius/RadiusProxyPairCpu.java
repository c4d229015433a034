package io.mclb.perf.radius;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Thread CPU time per call of {@link RadiusProxyPairBenchmark}'s two methods (median of 9 rounds of
 * 200,000 calls after 5 warm-up rounds): on a shared box JMH's wall-clock scores measure the wait
 * for a core, the thread's CPU time does not. Run: {@code java -cp perf/target/benchmarks.jar
 * io.mclb.perf.radius.RadiusProxyPairCpu} (perf/README.md, "RADIUS path: MD5 and the framed-IP index").
 */
public final class RadiusProxyPairCpu {
    private static Object sink;

    private RadiusProxyPairCpu() {
    }

    public static void main(String[] args) {
        RadiusProxyPairBenchmark b = new RadiusProxyPairBenchmark();
        b.setup();
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        int n = 200_000;
        for (int w = 0; w < 5; w++) { for (int i = 0; i < n; i++) { sink = b.accessRequestAndAccept(); sink = b.accountingRequestAndResponse(); } }
        double[] acc = new double[9], acct = new double[9];
        for (int r = 0; r < 9; r++) {
            long c0 = t.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) { sink = b.accessRequestAndAccept(); }
            long c1 = t.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) { sink = b.accountingRequestAndResponse(); }
            long c2 = t.getCurrentThreadCpuTime();
            acc[r] = (c1 - c0) / (double) n; acct[r] = (c2 - c1) / (double) n;
        }
        Arrays.sort(acc); Arrays.sort(acct);
        System.out.printf("access+accept cpu ns/op median %.0f (min %.0f max %.0f); accounting+response median %.0f (min %.0f max %.0f)%n",
            acc[4], acc[0], acc[8], acct[4], acct[0], acct[8]);
    }
}
