package io.mclb.perf.sticky;

import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyChangeListener.RemoveReason;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTables;
import io.mclb.sticky.StickyValue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Thread CPU per sticky-table operation, each of the kinds a RADIUS or GTP request makes: a hit, a
 * miss, a refresh {@code put} over a live entry, a {@code putIfAbsent} that finds a live entry (the
 * framed-IP learner's), a new key put then removed (a session's Start and Stop), and the learner's
 * refresh of an entry lagging past the slack, as a {@code putIfAbsent} and a {@code put} (before) and
 * as one {@code putUnlessCurrent}. The keys are built before timing (random order over a full
 * table), so the figures are the table's alone; CPU time rather than JMH's wall clock because on a
 * shared box the wall clock mostly measures the wait for a core. The operations take turns within
 * each round, so drift of the box reaches them alike.
 * Prints the median of the rounds per operation.
 *
 * <p>{@code java $FLAGS -cp perf/target/benchmarks.jar io.mclb.perf.sticky.StickyOpsCpu [entries] [ops] [rounds]};
 * to time another build's table with the same probe, put that build's common jar first on the class path.
 */
public final class StickyOpsCpu {
    private static final String[] OPS = {"get hit", "get miss", "put (refresh)", "putIfAbsent (live)", "put new + remove",
        "putIfAbsent + put (lagging)", "putUnlessCurrent (lagging)"};
    /** The timeout of the two lagging refreshes: long, so that every entry stays live at the clocks they use. */
    private static final int LAGGING_SECONDS = 1_000_000;

    private StickyOpsCpu() {
    }

    public static void main(String[] args) throws Exception {
        int entries = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int ops = args.length > 1 ? Integer.parseInt(args[1]) : 500_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 9;
        Path dir = Files.createTempDirectory("mclb-sticky-ops");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (ChronicleStickyTable table = StickyTables.open(dir, entries * 2L)) {
            StickyFill.fill(table, entries);
            StickyKey[] present = keys(0, entries);
            StickyKey[] absent = keys(entries, entries);
            int[] order = new int[ops];
            long seed = 0x9e3779b97f4a7c15L;
            for (int i = 0; i < ops; i++) {
                seed = Rounds.next(seed);
                order[i] = (int) ((seed >>> 1) % entries);
            }
            StickyValue out = new StickyValue();
            StickyValue value = new StickyValue();
            long checksum = 0;
            double[][] ns = new double[OPS.length][rounds];
            for (int r = -3; r < rounds; r++) { // three rounds of warm-up
                for (int op = 0; op < OPS.length; op++) {
                    long expires = StickyFill.EXPIRES_S + r + 10; // a refresh writes a new expiry every round
                    // the lagging refreshes (an Interim-Update past the slack, as the framed-IP learner
                    // made it before and makes it now) take turns 1,000 s apart: each finds every entry
                    // live, of the same real, and lagging by more than the slack
                    long lagNowS = StickyFill.EXPIRES_S + 1000L * (2 * (r + 4) + (op == 6 ? 1 : 0)) - LAGGING_SECONDS;
                    long lagNowMs = lagNowS * 1000;
                    long lagExpires = lagNowS + LAGGING_SECONDS;
                    long c0 = mx.getCurrentThreadCpuTime();
                    for (int i = 0; i < ops; i++) {
                        int k = order[i];
                        switch (op) {
                            case 0 -> checksum += table.get(present[k], out, 0L) ? 1 : 0;
                            case 1 -> checksum += table.get(absent[k], out, 0L) ? 1 : 0;
                            case 2 -> checksum += table.put(present[k], value.set(k, 1, expires)) ? 1 : 0;
                            case 3 -> checksum += table.putIfAbsent(present[k], value.set(k, 1, expires), out, 0L) ? 1 : 0;
                            case 4 -> {
                                checksum += table.put(absent[k], value.set(k, 1, expires)) ? 1 : 0;
                                checksum += table.remove(absent[k], RemoveReason.DELETED) ? 1 : 0;
                            }
                            case 5 -> {
                                if (!table.putIfAbsent(present[k], value.set(k, 1, lagExpires), out, lagNowMs)) {
                                    checksum += table.put(present[k], value) ? 1 : 0;
                                }
                            }
                            case 6 -> checksum += table.putUnlessCurrent(present[k], value.set(k, 1, lagExpires),
                                    LAGGING_SECONDS, out, lagNowMs) ? 1 : 0;
                            default -> throw new IllegalStateException("operation " + op);
                        }
                    }
                    long c1 = mx.getCurrentThreadCpuTime();
                    if (r >= 0) {
                        ns[op][r] = (double) (c1 - c0) / ops;
                    }
                }
            }
            System.out.printf("entries %,d, %,d ops x %d rounds per operation (checksum %d, size %,d)%n",
                    entries, ops, rounds, checksum, table.size());
            for (int op = 0; op < OPS.length; op++) {
                System.out.printf("%-28s CPU ns/op median %5.0f  rounds %s%n", OPS[op], Rounds.median(ns[op]),
                        Arrays.toString(Rounds.round(ns[op])));
            }
        } finally {
            StickyFill.deleteRecursively(dir);
        }
    }

    private static StickyKey[] keys(long from, int n) {
        StickyKey[] keys = new StickyKey[n];
        byte[] scratch = new byte[15];
        for (int i = 0; i < n; i++) {
            keys[i] = StickyFill.key(new StickyKey(), from + i, scratch);
        }
        return keys;
    }
}
