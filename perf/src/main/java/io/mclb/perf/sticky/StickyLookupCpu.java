package io.mclb.perf.sticky;

import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTables;
import io.mclb.sticky.StickyValue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The lookups of {@link StickyLookupBenchmark} (random hits over a full table, the key built in a
 * reused {@link StickyKey}) timed in the calling thread's CPU time as well as wall time: on a box
 * whose load average is many times its core count, JMH's wall-clock score mostly measures the wait
 * for a core, CPU time what a lookup costs. Prints the median of the rounds and, in the same run,
 * the loop without the lookup (the key building alone).
 *
 * <p>{@code java $FLAGS -cp perf/target/benchmarks.jar io.mclb.perf.sticky.StickyLookupCpu [entries] [lookups] [rounds]}
 */
public final class StickyLookupCpu {
    private StickyLookupCpu() {
    }

    public static void main(String[] args) throws Exception {
        long entries = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int lookups = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Path dir = Files.createTempDirectory("mclb-sticky-cpu");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (ChronicleStickyTable table = open(dir, entries)) {
            StickyFill.fill(table, entries);
            StickyKey key = new StickyKey();
            StickyValue out = new StickyValue();
            byte[] scratch = new byte[15];
            double[] cpu = new double[rounds];
            double[] wall = new double[rounds];
            double[] keyOnly = new double[rounds];
            long seed = 0x9e3779b97f4a7c15L;
            long hits = 0;
            for (int r = -2; r < rounds; r++) { // two rounds of warm-up
                long c0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                for (int i = 0; i < lookups; i++) {
                    seed = Rounds.next(seed);
                    hits += table.get(StickyFill.key(key, (seed >>> 1) % entries, scratch), out, 0L) ? 1 : 0;
                }
                long c1 = mx.getCurrentThreadCpuTime();
                long w1 = System.nanoTime();
                for (int i = 0; i < lookups; i++) {
                    seed = Rounds.next(seed);
                    hits += StickyFill.key(key, (seed >>> 1) % entries, scratch).bytes()[19];
                }
                long c2 = mx.getCurrentThreadCpuTime();
                if (r >= 0) {
                    cpu[r] = (double) (c1 - c0) / lookups;
                    wall[r] = (double) (w1 - w0) / lookups;
                    keyOnly[r] = (double) (c2 - c1) / lookups;
                }
            }
            System.out.printf("entries %,d, %,d lookups x %d rounds (hits checksum %d)%n", entries, lookups, rounds, hits);
            System.out.printf("lookup CPU ns/op  median %.0f  rounds %s%n", Rounds.median(cpu),
                    Arrays.toString(Rounds.round(cpu)));
            System.out.printf("lookup wall ns/op median %.0f  rounds %s%n", Rounds.median(wall),
                    Arrays.toString(Rounds.round(wall)));
            System.out.printf("key building alone, CPU ns/op median %.0f%n", Rounds.median(keyOnly));
        } finally {
            StickyFill.deleteRecursively(dir);
        }
    }

    private static ChronicleStickyTable open(Path dir, long entries) {
        return StickyTables.open(dir, entries);
    }
}
