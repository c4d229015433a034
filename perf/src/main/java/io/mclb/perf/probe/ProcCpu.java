package io.mclb.perf.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Where the CPU of a measurement window went, from {@code /proc} (clock ticks, 100 a second):
 * the user and kernel time of this process's event-loop threads and of the whole process, the
 * host's softirq time (all CPUs: on loopback and a plain veth the receive path of both ends runs
 * as softirq in the sending thread's context, so it is inside the loops' kernel time too), and
 * the CPU of kernel threads by name (threaded NAPI: {@code napi/DEV-N}, one per veth end).
 */
final class ProcCpu {
    private static final double TICKS_PER_S = 100.0;

    /** One reading; the differences of two make a window. */
    record Reading(long nanos, long loopsUser, long loopsSystem, long processUser, long processSystem,
                   long softirq, long[] kthreads, long targets) {
    }

    private final LongSupplier targetTicks;
    private final String[] kthreadPrefixes;

    /**
     * @param targetTicks     the CPU ticks of target processes elsewhere (0 when they run here)
     * @param kthreadPrefixes kernel thread names to account for, e.g. {@code napi/mbh123}
     */
    ProcCpu(LongSupplier targetTicks, String... kthreadPrefixes) {
        this.targetTicks = targetTicks;
        this.kthreadPrefixes = kthreadPrefixes;
    }

    Reading read() {
        long[] loops = new long[2];
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(t -> {
                if (comm(t).startsWith("mclb-loop")) {
                    long[] ut = userSystem(t.resolve("stat"));
                    loops[0] += ut[0];
                    loops[1] += ut[1];
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/task", e);
        }
        long[] process = userSystem(Path.of("/proc/self/stat"));
        long[] k = new long[kthreadPrefixes.length];
        for (int i = 0; i < k.length; i++) {
            String prefix = kthreadPrefixes[i];
            k[i] = sum(p -> comm(p).startsWith(prefix));
        }
        return new Reading(System.nanoTime(), loops[0], loops[1], process[0], process[1], softirq(), k,
                targetTicks.getAsLong());
    }

    /** The window from {@code a} to {@code b} as shares of one core, one line. */
    String describe(Reading a, Reading b, String... kthreadLabels) {
        double s = (b.nanos() - a.nanos()) / 1e9;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "  /proc (%% of one core): loops user %.2f"
                        + " system %.2f; whole process user %.2f system %.2f; host softirq (all CPUs) %.2f",
                pct(b.loopsUser() - a.loopsUser(), s), pct(b.loopsSystem() - a.loopsSystem(), s),
                pct(b.processUser() - a.processUser(), s), pct(b.processSystem() - a.processSystem(), s),
                pct(b.softirq() - a.softirq(), s)));
        if (b.targets() != a.targets()) {
            sb.append(String.format(Locale.ROOT, "; target processes %.2f", pct(b.targets() - a.targets(), s)));
        }
        for (int i = 0; i < kthreadLabels.length; i++) {
            sb.append(String.format(Locale.ROOT, "; %s %.2f", kthreadLabels[i], pct(b.kthreads()[i] - a.kthreads()[i], s)));
        }
        return sb.toString();
    }

    private static double pct(long ticks, double seconds) {
        return ticks / TICKS_PER_S / seconds * 100;
    }

    /** utime + stime of {@code pid} and its descendants (their threads included). */
    static long ticksOfTree(long pid) {
        long[] ut = userSystem(Path.of("/proc/" + pid + "/stat"));
        long n = ut[0] + ut[1];
        for (ProcessHandle h : (Iterable<ProcessHandle>) ProcessHandle.of(pid).map(ProcessHandle::descendants)
                .orElse(Stream.empty())::iterator) {
            long[] d = userSystem(Path.of("/proc/" + h.pid() + "/stat"));
            n += d[0] + d[1];
        }
        return n;
    }

    /** utime + stime of every process whose /proc entry matches. */
    private static long sum(Predicate<Path> which) {
        long n = 0;
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs.filter(p -> p.getFileName().toString().matches("[0-9]+"))::iterator) {
                if (which.test(p)) {
                    long[] ut = userSystem(p.resolve("stat"));
                    n += ut[0] + ut[1];
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return n;
    }

    private static String comm(Path dir) {
        try {
            return Files.readString(dir.resolve("comm")).strip();
        } catch (IOException e) {
            return ""; // gone meanwhile
        }
    }

    /** Fields 14 and 15 (utime, stime) of a stat file; the name in parentheses may hold spaces. */
    private static long[] userSystem(Path stat) {
        try {
            String s = Files.readString(stat);
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }

    /** The softirq column of /proc/stat's cpu line. */
    private static long softirq() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return Long.parseLong(f[7]);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/stat", e);
        }
    }
}
