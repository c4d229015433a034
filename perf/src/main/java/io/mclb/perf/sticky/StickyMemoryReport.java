package io.mclb.perf.sticky;

import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyTables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fills a persisted sticky table with N entries and prints resident memory (VmRSS) before and
 * after, per million entries, and the file size. Usage:
 * {@code java FLAGS -cp perf/target/benchmarks.jar io.mclb.perf.sticky.StickyMemoryReport [entries] [dir]}.
 * A report tool, so it prints to stdout.
 */
public final class StickyMemoryReport {
    private StickyMemoryReport() {
    }

    public static void main(String[] args) throws IOException {
        long entries = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("mclb-sticky-mem");
        long rssStartKb = vmRssKb();
        long t0 = System.nanoTime();
        ChronicleStickyTable table = StickyTables.open(dir, entries);
        long rssOpenKb = vmRssKb();
        long t1 = System.nanoTime();
        StickyFill.fill(table, entries);
        long t2 = System.nanoTime();
        System.gc();
        long rssFullKb = vmRssKb();
        Runtime rt = Runtime.getRuntime();
        long heapUsed = rt.totalMemory() - rt.freeMemory();
        long fileBytes = Files.size(dir.resolve(StickyTables.DATA_FILE));
        long size = table.size();
        long offHeap = table.offHeapMemoryUsed();
        table.close();
        if (args.length <= 1) {
            StickyFill.deleteRecursively(dir);
        }
        double millions = entries / 1e6;
        System.out.printf("entries            %,d (stored %,d)%n", entries, size);
        System.out.printf("open               %.1f s, fill %.1f s (%.2f us/put)%n",
                (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t1) / 1e3 / entries);
        System.out.printf("VmRSS start        %,d KiB%n", rssStartKb);
        System.out.printf("VmRSS after open   %,d KiB%n", rssOpenKb);
        System.out.printf("VmRSS after fill   %,d KiB (%.1f MiB)%n", rssFullKb, rssFullKb / 1024.0);
        System.out.printf("RSS growth         %.1f MiB, %.1f MiB per million entries%n",
                (rssFullKb - rssStartKb) / 1024.0, (rssFullKb - rssStartKb) / 1024.0 / millions);
        System.out.printf("total RSS          %.1f MiB per million entries%n", rssFullKb / 1024.0 / millions);
        System.out.printf("file sticky.dat    %,d bytes (%.1f B per entry), Chronicle offHeapMemoryUsed %,d%n",
                fileBytes, (double) fileBytes / entries, offHeap);
        System.out.printf("heap used          %.1f MiB%n", heapUsed / 1048576.0);
    }

    private static long vmRssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
