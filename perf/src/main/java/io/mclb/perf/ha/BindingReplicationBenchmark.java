package io.mclb.perf.ha;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingCodec;
import io.mclb.binding.BindingKind;
import io.mclb.binding.BindingTable;
import io.mclb.binding.Bindings;
import io.mclb.config.RealConfig;
import io.mclb.farm.RealServer;
import io.mclb.ha.replication.ReplicatedBindings;
import io.mclb.ha.replication.ReplicatedState;
import io.mclb.ha.replication.ReplicationConfig;
import io.mclb.ha.replication.StickyReplicator;
import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyTables;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Binding replication at scale (issue 13, "Measure"): an active node's binding table of
 * {@code sessions} GTP-like sessions replicated to a standby over loopback TCP, both in this JVM
 * (one clock). First the standby joins and takes the whole table in the bulk resync (timed). Then
 * the driver runs {@code rate} creates per second in 1 ms steps, each with a delete of the oldest
 * session (the table stays at {@code sessions}) and {@code rate} follow-ups (a touch, as a request
 * of the session does; the ager re-sends what they move). Lag: each create carries its
 * {@code System.nanoTime()} as the alias, and the codec records apply time minus that on the
 * standby in an HdrHistogram. Standby CPU: the CPU time of the threads the standby's replicator
 * started (its event loop), over the wall time of the steady phase.
 *
 * <p>Usage: {@code BindingReplicationBenchmark [sessions=1000000] [rate=5000] [seconds=20] [warmup=3]}.
 */
public final class BindingReplicationBenchmark {
    private static final long IDLE_NS = 3_600_000_000_000L;
    private static final Histogram LAG_NS = new ConcurrentHistogram(60_000_000_000L, 3);
    private static volatile boolean measuring;

    /** A GTP session's shape: the common fields and a 4-octet GGSN address. */
    static final class BenchSession extends Binding {
        BenchSession(long owner, int sub, RealServer real, long alias, long nowNs, long idleNs) {
            super(owner, sub, real, alias, nowNs, idleNs);
        }
    }

    static final BindingKind<BenchSession> KIND = BindingKind.<BenchSession>of("bench-session")
            .codec(new BindingCodec<>() {
                @Override
                public void writeExtra(BenchSession b, ByteBuf out) {
                    out.writeByte(4).writeInt(0x0A000015);
                }

                @Override
                public BenchSession read(Fields f, ByteBuf extra) {
                    if (measuring && f.alias() != 0) {
                        LAG_NS.recordValue(Math.max(0, System.nanoTime() - f.alias()));
                    }
                    return new BenchSession(f.owner(), f.sub(), f.real(), f.alias(), f.nowNs(), f.idleNs());
                }
            });

    private BindingReplicationBenchmark() {
    }

    /** One node: its reals (farm F, three GGSNs), binding tables and replicator. */
    private static final class BenchNode implements AutoCloseable {
        final NanoClock clock = NanoClock.system();
        final Bindings bindings = new Bindings(clock, new SimpleMeterRegistry());
        final RealServer[] reals = new RealServer[3];
        final BindingTable<BenchSession> table = bindings.table(KIND);
        final ChronicleStickyTable sticky;
        final StickyReplicator replicator;

        BenchNode(Path dir) throws Exception {
            java.util.Map<Long, RealServer> byId = new java.util.HashMap<>();
            for (int i = 0; i < reals.length; i++) {
                RealConfig c = RealConfig.defaults(InetAddress.getByName("10.0.0." + (21 + i)), 0, null)
                        .withWeight(8).withInService(true);
                reals[i] = new RealServer("F", c, clock, null);
                byId.put(reals[i].id(), reals[i]);
            }
            sticky = StickyTables.open(dir, 10_000);
            replicator = new StickyReplicator(sticky, new ReplicatedState(), new SimpleMeterRegistry(), 1 << 17,
                    new ReplicatedBindings(bindings, byId::get, clock));
        }

        void open(long owner, long alias) {
            RealServer r = reals[(int) (owner % reals.length)];
            r.holdReplicated(); // as the engine's acquire on an accepted create
            table.open(new BenchSession(owner, 5, r, alias, clock.nanoTime(), IDLE_NS));
        }

        @Override
        public void close() {
            replicator.close();
            bindings.close();
            sticky.close();
        }
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path dir = Files.createTempDirectory("mclb-binding-bench");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (BenchNode a = new BenchNode(dir.resolve("a"))) {
            long t0 = System.nanoTime();
            for (long i = 0; i < sessions; i++) {
                a.open(i, 0);
            }
            System.out.printf("active: %d sessions opened in %.1f s%n", sessions, (System.nanoTime() - t0) / 1e9);
            InetAddress lo = InetAddress.getLoopbackAddress();
            ReplicationConfig config = ReplicationConfig.of(lo, lo, 0, "casa-secret")
                    .withTuning(Duration.ofSeconds(1), Duration.ofMillis(100), 1 << 17);
            InetSocketAddress bound = a.replicator.startActive(config);
            Set<Long> before = new HashSet<>();
            for (long id : threads.getAllThreadIds()) {
                before.add(id);
            }
            try (BenchNode b = new BenchNode(dir.resolve("b"))) {
                long join = System.nanoTime();
                b.replicator.startStandby(config.withPort(bound.getPort()), null);
                while (b.table.size() < sessions && System.nanoTime() - join < 600_000_000_000L) {
                    LockSupport.parkNanos(10_000_000);
                }
                System.out.printf("bulk resync: %d sessions on the standby %.1f s after it connected%n",
                        b.table.size(), (System.nanoTime() - join) / 1e9);
                drive(a, b, sessions, rate, seconds, warmup, threads, before);
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void drive(BenchNode a, BenchNode b, int sessions, int rate, int seconds, int warmup,
                              ThreadMXBean threads, Set<Long> before) {
        int perMs = Math.max(1, rate / 1000);
        long oldest = 0;
        long next = sessions;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        long start = System.nanoTime();
        long measureFrom = start + warmup * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        long cpuFrom = 0;
        long step = start;
        long creates = 0;
        while (step < end) {
            if (!measuring && step >= measureFrom) {
                measuring = true;
                LAG_NS.reset();
                creates = 0;
                cpuFrom = standbyCpuNs(threads, before);
            }
            for (int i = 0; i < perMs; i++) {
                a.open(next++, System.nanoTime());
                a.table.close(a.table.get(oldest++, 5));
                BenchSession s = a.table.get(oldest + rnd.nextLong(next - oldest), 5);
                if (s != null) {
                    s.touch(a.clock.nanoTime());
                }
                creates++;
            }
            step += 1_000_000L;
            long wait = step - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        long wallNs = System.nanoTime() - measureFrom;
        double cpu = (standbyCpuNs(threads, before) - cpuFrom) / (double) wallNs;
        long settle = System.nanoTime();
        while (b.table.size() != a.table.size() && System.nanoTime() - settle < 10_000_000_000L) {
            LockSupport.parkNanos(10_000_000);
        }
        Histogram h = LAG_NS.copy();
        System.out.printf("steady %d s: %d creates (%.0f/s) + as many deletes and follow-ups over %d sessions%n",
                seconds, creates, creates / (wallNs / 1e9), a.table.size());
        System.out.printf("lag (create on active -> applied on standby), %d creates: p50 %.2f ms, p99 %.2f ms, "
                        + "p99.9 %.2f ms, max %.2f ms%n", h.getTotalCount(), h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6, h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6);
        System.out.printf("standby replication thread CPU: %.2f of one core%n", cpu);
        long[] ca = counts(a);
        long[] cb = counts(b);
        System.out.printf("sessions active %d / standby %d; per real active %s, standby %s%n", a.table.size(),
                b.table.size(), java.util.Arrays.toString(ca), java.util.Arrays.toString(cb));
    }

    private static long[] counts(BenchNode n) {
        long[] c = new long[n.reals.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = n.reals[i].activeConnections();
        }
        return c;
    }

    /** CPU of the threads started after {@code before} was taken (the standby's), bar the active's snapshot walker. */
    private static long standbyCpuNs(ThreadMXBean threads, Set<Long> before) {
        long ns = 0;
        for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && !before.contains(t.getThreadId()) && !t.getThreadName().contains("snapshot")) {
                long c = threads.getThreadCpuTime(t.getThreadId());
                ns += Math.max(0, c);
            }
        }
        return ns;
    }
}
