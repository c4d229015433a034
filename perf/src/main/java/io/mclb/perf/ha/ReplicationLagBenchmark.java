package io.mclb.perf.ha;

import io.mclb.ha.replication.ReplicatedState;
import io.mclb.ha.replication.ReplicationConfig;
import io.mclb.ha.replication.StickyReplicator;
import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.gtp.lb.GtpModule;
import io.mclb.sticky.StickyTables;
import io.mclb.sticky.StickyValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Replication lag at a fixed rate of sticky changes (issue 5, "Measure"): an active table
 * replicating to a standby table over loopback TCP, both in this JVM (so one clock), each in its
 * own temporary data directory.
 *
 * <p>The driver makes {@code rate} changes per second in 1 ms steps (80 % creates of new IMSIs,
 * 10 % refreshes, 10 % removes). Each put stores its {@code System.nanoTime()} in the value's
 * real id, so a listener on the standby table records apply time minus put time per put in an
 * HdrHistogram (removes are not timed). At the end the active's stream is cut at once (as a kill
 * would) and the standby is compared with the active: entries missing or different, in total
 * and among those written more than 100 ms before the cut.
 *
 * <p>Usage: {@code ReplicationLagBenchmark [seconds=10] [rate=20000] [password=casa-secret] [warmup=3]}: the
 * first {@code warmup} seconds run at the same rate but are reported apart and not counted.
 */
public final class ReplicationLagBenchmark {
    private ReplicationLagBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        String password = args.length > 2 ? args[2] : "casa-secret";
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path dir = Files.createTempDirectory("mclb-repl-bench");
        long capacity = Math.max(100_000L, (long) (seconds + warmup) * rate);
        try (ChronicleStickyTable active = StickyTables.open(dir.resolve("active"), capacity);
             ChronicleStickyTable standby = StickyTables.open(dir.resolve("standby"), capacity)) {
            run(active, standby, seconds, warmup, rate, password);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(ChronicleStickyTable active, ChronicleStickyTable standby, int seconds, int warmup,
                            int rate, String password) throws IOException {
        Histogram lagNs = new ConcurrentHistogram(60_000_000_000L, 3);
        standby.addListener(new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                long putNanos = new StickyValue().copyFrom(value).realId();
                lagNs.recordValue(Math.max(0, System.nanoTime() - putNanos));
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
            }
        });
        InetAddress lo = InetAddress.getLoopbackAddress();
        ReplicationConfig config = ReplicationConfig.of(lo, lo, 0, password)
                .withTuning(Duration.ofSeconds(1), Duration.ofMillis(100), 1 << 17);
        SimpleMeterRegistry activeRegistry = new SimpleMeterRegistry();
        StickyReplicator a = new StickyReplicator(active, new ReplicatedState(), activeRegistry, 1 << 17);
        SimpleMeterRegistry standbyRegistry = new SimpleMeterRegistry();
        StickyReplicator b = new StickyReplicator(standby, new ReplicatedState(), standbyRegistry, 1 << 17);
        InetSocketAddress bound = a.startActive(config);
        b.startStandby(config.withPort(bound.getPort()), null);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!a.connected() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        if (!a.connected()) {
            throw new IllegalStateException("standby did not connect");
        }

        StickyKey key = new StickyKey();
        StickyValue value = new StickyValue();
        byte[] imsi = new byte[15];
        int perMs = Math.max(1, rate / 1000);
        long created = 0;
        long changes = 0;
        long start = System.nanoTime();
        long measureFrom = start + warmup * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        boolean measuring = warmup == 0;
        long step = start;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        Histogram lastSecond = new Histogram(60_000_000_000L, 3);
        long nextSecond = start + 1_000_000_000L;
        int second = 0;
        while (step < end) {
            if (!measuring && step >= measureFrom) {
                // warm-up over (JIT of the HMAC, Chronicle and Netty paths): count from here
                measuring = true;
                Histogram w = lagNs.copy();
                System.out.printf("warm-up %d s: %d puts, p99 %.2f ms, max %.2f ms (not counted)%n", warmup,
                        w.getTotalCount(), w.getValueAtPercentile(99) / 1e6, w.getMaxValue() / 1e6);
                lagNs.reset();
                lastSecond.reset();
                changes = 0;
            }
            if (step >= nextSecond) {
                // per-second view, to tell warm-up and machine hiccups from steady state
                Histogram h = lagNs.copy();
                h.subtract(lastSecond);
                lastSecond.add(h);
                System.out.printf("  second %2d: %6d puts applied, p99 %.2f ms, max %.2f ms%n", ++second,
                        h.getTotalCount(), h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6);
                nextSecond += 1_000_000_000L;
            }
            for (int i = 0; i < perMs; i++) {
                int roll = rnd.nextInt(10);
                if (roll < 8 || created < 100) {
                    fill(imsi, created++);
                } else {
                    fill(imsi, rnd.nextLong(created));
                }
                key.set(GtpModule.IMSI, 1, imsi);
                if (roll == 9 && created >= 100) {
                    active.remove(key, StickyChangeListener.RemoveReason.DELETED);
                } else {
                    value.set(System.nanoTime(), 1_700_000_000L, 4_000_000_000L);
                    active.put(key, value);
                }
                changes++;
            }
            step += 1_000_000;
            long wait = step - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        long cutNanos = System.nanoTime();
        double achieved = changes / ((cutNanos - measureFrom) / 1e9);
        a.stop(); // the kill: whatever was not yet sent is lost
        long cutoff = cutNanos - 100_000_000L;
        StickyValue seen = new StickyValue();
        long[] counts = new long[3];
        active.forEach((k, v) -> {
            counts[0]++;
            boolean ok = standby.get(k, seen, 0) && java.util.Arrays.equals(seen.bytes(), v.bytes());
            if (!ok) {
                counts[1]++;
                if (v.realId() < cutoff) {
                    counts[2]++;
                }
            }
            return true;
        });
        long checked = counts[0];
        long missing = counts[1];
        long missingOld = counts[2];
        System.out.printf("changes %d in %.1f s = %.0f/s (target %d/s), entries on active %d, on standby %d%n",
                changes, (cutNanos - measureFrom) / 1e9, achieved, rate, checked, standby.size());
        System.out.printf("replication lag (put on active -> applied on standby), %d puts: p50 %.2f ms, p99 %.2f ms, "
                        + "p99.9 %.2f ms, max %.2f ms%n", lagNs.getTotalCount(), lagNs.getValueAtPercentile(50) / 1e6,
                lagNs.getValueAtPercentile(99) / 1e6, lagNs.getValueAtPercentile(99.9) / 1e6,
                lagNs.getMaxValue() / 1e6);
        System.out.printf("at the cut: %d entries missing or stale on the standby, %d of them written more than "
                + "100 ms before the cut%n", missing, missingOld);
        System.out.printf("resyncs (standby) %.0f, overflows (active) %.0f%n",
                standbyRegistry.get("mclb.replication.resyncs").counter().count(),
                activeRegistry.get("mclb.replication.overflows").counter().count());
        b.close();
        a.close();
    }

    /** A 15-digit IMSI for subscriber {@code n}, as ASCII digits. */
    private static void fill(byte[] imsi, long n) {
        long v = 262_010_000_000_000L + n;
        for (int i = imsi.length - 1; i >= 0; i--) {
            imsi[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
    }
}
