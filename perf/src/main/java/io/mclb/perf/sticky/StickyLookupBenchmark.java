package io.mclb.perf.sticky;

import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTables;
import io.mclb.sticky.StickyValue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Sticky lookup hits on a full persisted table, as the data path does them: one reusable key and
 * value per thread, random keys over the whole table (so most lookups miss the CPU caches, as
 * with real subscriber populations).
 *
 * <p>Run with the Chronicle JVM flags (see perf/README.md), also as {@code -jvmArgsAppend}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class StickyLookupBenchmark {
    @Param("10000000")
    public long entries;

    private Path dir;
    private ChronicleStickyTable table;

    @Setup(Level.Trial)
    public void fill() throws IOException {
        dir = Files.createTempDirectory("mclb-sticky-bench");
        table = StickyTables.open(dir, entries);
        StickyFill.fill(table, entries);
    }

    @TearDown(Level.Trial)
    public void close() {
        table.close();
        StickyFill.deleteRecursively(dir);
    }

    /** Per-thread lookup state: the flyweights an event loop would own. */
    @State(Scope.Thread)
    public static class Lookup {
        final StickyKey key = new StickyKey();
        final StickyValue out = new StickyValue();
        final byte[] scratch = new byte[15];
        long seed = 0x9e3779b97f4a7c15L;
    }

    @Benchmark
    public boolean getHit(Lookup l) {
        // xorshift: a cheap uniform spread over all entries without an index array
        long x = l.seed;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        l.seed = x;
        long i = (x >>> 1) % entries;
        return table.get(StickyFill.key(l.key, i, l.scratch), l.out, 0L);
    }
}
