package io.mclb.perf.probe;

import io.mclb.config.ConfigParser;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.Counter;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.EventExecutor;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * What probing costs (issue 10, "Measure"): {@code reals} reals probed at 1 s intervals by one
 * probe type, in a runtime of this JVM; the CPU time of mclb's event-loop threads (where every
 * check runs) over {@code seconds}, as a share of one core, against a baseline measured first in
 * the same run: the same runtime and reals without probes. Targets: the kernel for {@code ping}
 * (127.1.x.y answer on loopback), a TCP listener and a UDP echo on the wildcard address for
 * {@code tcp} and {@code udp} (custom udp), their threads not counted.
 *
 * <p>Then failure detection: {@code victims} extra reals on their own UDP echo (custom udp
 * probe, interval 1 s, faildetect 3, timeout 1 s) go silent at once; the time from silence to
 * PROBE_FAILED of each is reported against interval x faildetect + timeout.
 *
 * <p>Where the targets are: {@code loopback} (127.1.x.y, the TCP listener and UDP echo in this
 * JVM), or for tcp and ping {@code netns} / {@code netns-napi}: behind a veth pair in a namespace
 * of their own ({@link TargetNamespace}; root), so their side of each check is no longer this
 * process's; with {@code netns-napi} each veth end's receive path runs in its own kernel thread.
 * Each window also prints where the CPU went by {@code /proc} ({@link ProcCpu}).
 *
 * <p>Usage: {@code ProbeCostBenchmark [type=udp|tcp|ping] [reals=2000] [seconds=20] [warmup=5] [victims=20] [loops=2]
 * [targets=loopback|netns|netns-napi]}
 */
public final class ProbeCostBenchmark {
    private static final int INTERVAL_S = 1;
    private static final int FAILDETECT = 3;
    private static final int TIMEOUT_S = 1;
    /** Turns of each loop before the first measurement: past the JIT's on-stack replacement threshold. */
    private static final int LOOP_WARMUP_TURNS = 100_000;
    /** Real i's address: 127.1.x.y on loopback, 198.18.x.y in a namespace (set once in main). */
    private static IntFunction<String> address = ProbeCostBenchmark::loopbackAddress;
    /** What the /proc view of each window accounts for (set once in main). */
    private static ProcCpu procCpu = new ProcCpu(() -> 0);
    private static String[] kthreadLabels = {};

    private ProbeCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // as mclb's Main: at its default level Netty's leak detector samples one buffer in 128
            // with a stack trace, a cost the running balancer does not pay
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        String type = args.length > 0 ? args[0] : "udp";
        int reals = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        int victims = args.length > 4 ? Integer.parseInt(args[4]) : 20;
        int loops = args.length > 5 ? Integer.parseInt(args[5]) : 2;
        String where = args.length > 6 ? args[6] : "loopback";
        if (!where.equals("loopback") && !where.equals("netns") && !where.equals("netns-napi")) {
            throw new IllegalArgumentException("targets " + where + ": expected loopback, netns or netns-napi");
        }
        if (!where.equals("loopback") && type.equals("udp")) {
            throw new IllegalArgumentException("targets " + where + ": for tcp and ping (a udp real must answer from"
                    + " its own address: one socket per real, on loopback)");
        }
        try (TargetNamespace ns = where.equals("loopback") ? null : TargetNamespace.create(where.equals("netns-napi"))) {
            if (ns != null) {
                address = TargetNamespace::address;
                procCpu = new ProcCpu(ns::targetTicks, "napi/" + ns.hostLink, "napi/" + ns.targetLink);
                kthreadLabels = new String[] {"prober-side NAPI thread", "target-side NAPI thread"};
            }
            run(type, reals, seconds, warmup, victims, loops, where, ns);
        }
    }

    private static void run(String type, int reals, int seconds, int warmup, int victims, int loops, String where,
                            TargetNamespace ns) throws Exception {
        Path dir = Files.createTempDirectory("mclb-probe-bench");
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> targets = new ArrayList<>();
        int port = startTargets(type, reals, stop, targets, ns);
        List<Victim> silent = new ArrayList<>();
        for (int i = 0; i < victims; i++) {
            silent.add(new Victim("127.2.0." + (i + 1), stop));
        }
        System.out.printf(Locale.ROOT, "probe type %s, %d reals at %d s intervals, %d event loop(s), %d cores, targets"
                + " %s%n", type, reals, INTERVAL_S, loops, Runtime.getRuntime().availableProcessors(), where);
        double baseline;
        try (MclbRuntime rt = start(dir.resolve("baseline"), config(dir.resolve("baseline"), type, reals, port, List.of(),
                loops, false))) {
            spinLoops(rt, LOOP_WARMUP_TURNS);
            Thread.sleep(warmup * 1000L);
            baseline = loopCpuShare(seconds);
        }
        double floor = type.equals("udp") ? udpFloor(reals, port, seconds) : -1;
        try (MclbRuntime rt = start(dir.resolve("probed"), config(dir.resolve("probed"), type, reals, port, silent,
                loops, true))) {
            spinLoops(rt, 4 * 1024); // new threads enter the compiled loop at a back-edge check (every 1,024)
            long t0 = System.nanoTime();
            while (!Arrays.stream(rt.farms().get("F").reals()).allMatch(r -> r.state() == RealState.OPERATIONAL)) {
                if (System.nanoTime() - t0 > 120_000_000_000L) {
                    throw new IllegalStateException("reals not all up after 120 s: " + states(rt) + "; last failures: "
                            + reasons(rt));
                }
                Thread.sleep(100);
            }
            System.out.printf(Locale.ROOT, "bring-up: %d reals OPERATIONAL in %.1f s%n", reals + victims,
                    (System.nanoTime() - t0) / 1e9);
            Thread.sleep(warmup * 1000L);
            double checksBefore = checks(rt);
            double failedBefore = failedChecks(rt);
            double probed = loopCpuShare(seconds);
            double rate = (checks(rt) - checksBefore) / seconds;
            System.out.printf(Locale.ROOT, "baseline (same reals, no probes): event loops %.2f %% of one core%n",
                    baseline * 100);
            System.out.printf(Locale.ROOT, "probing: event loops %.2f %% of one core, %.0f checks/s (%.0f failed in the"
                    + " window), %.1f us of loop CPU per check; probing adds %.2f %% of one core%n", probed * 100, rate,
                    failedChecks(rt) - failedBefore, (probed - baseline) * 1e6 / Math.max(rate, 1), (probed - baseline) * 100);
            if (floor >= 0) {
                System.out.printf(Locale.ROOT, "floor (one plain thread, same datagrams to the same targets, no"
                        + " mclb): %.2f %% of one core; mclb's probing costs %.2f x the floor%n", floor * 100,
                        (probed - baseline) / floor);
            }
            detection(rt, silent);
        } finally {
            stop.set(true);
            for (Victim v : silent) {
                v.socket.close();
            }
        }
    }

    /**
     * Turns each event loop's own run loop round {@code turns} times, one task each, so that the
     * JIT has compiled it (on-stack replacement after about 60,000 back-edges) as in a balancer
     * that has run for a while: at the ~130 turns a second probing makes, a minute's run would
     * otherwise measure that loop interpreted (4-6 % of the loops' samples in {@code perf}).
     */
    private static void spinLoops(MclbRuntime rt, int turns) throws Exception {
        for (EventExecutor loop : rt.loops()) {
            for (int i = 0; i < turns; i++) {
                loop.submit(() -> { }).get();
            }
        }
    }

    private static MclbRuntime start(Path data, String cfg) throws Exception {
        Modules m = Modules.of();
        return MclbRuntime.start(ConfigParser.parse("bench.cfg", cfg, data, m.grammar()), m, ServingGate.ALWAYS,
                NanoClock.system());
    }

    private static String config(Path data, String type, int reals, int port, List<Victim> victims, int loops,
                                 boolean probes) {
        StringBuilder sb = new StringBuilder("mclb data-dir " + data + "\nmclb event-loops " + loops + "\n");
        String timing = " interval " + INTERVAL_S + "\n faildetect " + FAILDETECT + "\n timeout " + TIMEOUT_S + "\n";
        sb.append("ip slb probe P ").append(switch (type) {
            case "ping" -> "ping\n";
            case "tcp" -> "tcp\n";
            default -> "custom udp\n request data 0 6d636c62\n response 1 data 0 6d636c62\n";
        }).append(timing);
        sb.append("ip slb probe V custom udp\n request data 0 6d636c62\n response 1 data 0 6d636c62\n").append(timing);
        sb.append("ip slb serverfarm F\n").append(probes ? " probe P\n" : "");
        for (int i = 0; i < reals; i++) {
            sb.append(" real ").append(address.apply(i)).append(' ').append(port).append("\n  inservice\n");
        }
        if (!victims.isEmpty()) {
            sb.append("ip slb serverfarm VICTIMS\n probe V\n");
            for (Victim v : victims) {
                sb.append(" real ").append(v.address()).append(' ').append(v.socket.getLocalPort()).append("\n  inservice\n");
            }
        }
        sb.append("ip slb vserver VS\n virtual 127.0.0.100 udp 9\n serverfarm F\n inservice\n");
        return sb.toString();
    }

    /**
     * Share of one core the mclb event-loop threads used over {@code seconds} (user and kernel
     * time; the user part is printed too: on loopback the kernel delivers each datagram in the
     * sender's context, so the kernel part also holds the targets' receive path).
     */
    private static double loopCpuShare(int seconds) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long before = loopCpuNs(mx, false);
        long userBefore = loopCpuNs(mx, true);
        ProcCpu.Reading procBefore = procCpu.read();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long wall = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "  (of which user time %.2f %% of one core)%n",
                (loopCpuNs(mx, true) - userBefore) * 100.0 / wall);
        System.out.println(procCpu.describe(procBefore, procCpu.read(), kthreadLabels));
        return (double) (loopCpuNs(mx, false) - before) / wall;
    }

    /**
     * The kernel's part of a UDP check on loopback, both ends, without mclb: one thread sends
     * {@code reals} datagrams a second (in 100 bursts) to the same targets and reads the answers
     * through a selector; its CPU share over {@code seconds} (the user part printed too).
     */
    private static double udpFloor(int reals, int port, int seconds) throws IOException {
        InetSocketAddress[] to = new InetSocketAddress[reals];
        for (int i = 0; i < reals; i++) {
            to[i] = new InetSocketAddress(address.apply(i), port);
        }
        try (DatagramChannel ch = DatagramChannel.open(); Selector sel = Selector.open()) {
            ch.bind(new InetSocketAddress("127.0.0.1", 0));
            ch.configureBlocking(false);
            ch.register(sel, SelectionKey.OP_READ);
            ByteBuffer out = ByteBuffer.wrap(new byte[] {'m', 'c', 'l', 'b'});
            ByteBuffer in = ByteBuffer.allocateDirect(2048);
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long cpu0 = mx.getCurrentThreadCpuTime();
            long user0 = mx.getCurrentThreadUserTime();
            long t0 = System.nanoTime();
            long end = t0 + seconds * 1_000_000_000L;
            long nextBurst = t0;
            long answered = 0;
            int next = 0;
            int perBurst = Math.max(1, reals / 100);
            while (System.nanoTime() < end) {
                for (int i = 0; i < perBurst; i++) {
                    out.rewind();
                    ch.send(out, to[next]);
                    next = (next + 1) % reals;
                }
                nextBurst += 10_000_000L;
                long wait;
                while ((wait = nextBurst - System.nanoTime()) > 0) {
                    if (sel.select(Math.max(1, wait / 1_000_000)) > 0) {
                        sel.selectedKeys().clear();
                        in.clear();
                        while (ch.receive(in) != null) {
                            answered++;
                            in.clear();
                        }
                    }
                }
            }
            long wall = System.nanoTime() - t0;
            System.out.printf(Locale.ROOT, "  floor: %d answers/s, user time %.2f %% of one core%n",
                    answered * 1_000_000_000L / wall, (mx.getCurrentThreadUserTime() - user0) * 100.0 / wall);
            return (double) (mx.getCurrentThreadCpuTime() - cpu0) / wall;
        }
    }

    private static long loopCpuNs(ThreadMXBean mx, boolean userOnly) {
        long sum = 0;
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("mclb-loop")) {
                long ns = userOnly ? mx.getThreadUserTime(t.getThreadId()) : mx.getThreadCpuTime(t.getThreadId());
                sum += Math.max(0, ns);
            }
        }
        return sum;
    }

    private static double checks(MclbRuntime rt) {
        return rt.registry().find("mclb.probe.results").tag("probe", "P").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static double failedChecks(MclbRuntime rt) {
        return rt.registry().find("mclb.probe.results").tag("probe", "P").counters().stream()
                .filter(c -> !"success".equals(c.getId().getTag("result"))).mapToDouble(Counter::count).sum();
    }

    private static void detection(MclbRuntime rt, List<Victim> victims) throws InterruptedException {
        if (victims.isEmpty()) {
            return;
        }
        long silentAt = System.nanoTime();
        victims.forEach(v -> v.silent = true);
        RealServer[] rs = rt.farms().get("VICTIMS").reals();
        long[] detectedMs = new long[rs.length];
        Arrays.fill(detectedMs, -1);
        long deadline = silentAt + 30_000_000_000L;
        int left = rs.length;
        while (left > 0 && System.nanoTime() < deadline) {
            for (int i = 0; i < rs.length; i++) {
                if (detectedMs[i] < 0 && rs[i].state() == RealState.PROBE_FAILED) {
                    detectedMs[i] = (System.nanoTime() - silentAt) / 1_000_000;
                    left--;
                }
            }
            Thread.sleep(5);
        }
        long[] d = Arrays.stream(detectedMs).filter(x -> x >= 0).sorted().toArray();
        System.out.printf(Locale.ROOT, "failure detection (%d reals go silent; interval %d s x faildetect %d + timeout"
                        + " %d s = %d ms): detected %d of %d, min %d ms, median %d ms, max %d ms%n", rs.length, INTERVAL_S,
                FAILDETECT, TIMEOUT_S, (INTERVAL_S * FAILDETECT + TIMEOUT_S) * 1000, d.length, rs.length,
                d.length == 0 ? -1 : d[0], d.length == 0 ? -1 : d[d.length / 2], d.length == 0 ? -1 : d[d.length - 1]);
    }

    private static String states(MclbRuntime rt) {
        return Arrays.stream(rt.farms().get("F").reals()).collect(java.util.stream.Collectors.groupingBy(
                RealServer::state, java.util.stream.Collectors.counting())).toString();
    }

    private static String reasons(MclbRuntime rt) {
        return rt.probeStatus().stream().filter(s -> !s.lastReason().isEmpty()).collect(
                java.util.stream.Collectors.groupingBy(s -> s.lastReason().replaceAll("[0-9.]+:[0-9]+", "ADDR"),
                        java.util.stream.Collectors.counting())).toString();
    }

    private static String loopbackAddress(int i) {
        return "127.1." + (1 + i / 250) + "." + (1 + i % 250);
    }

    /** The targets of the reals (none for ping); returns their port. */
    private static int startTargets(String type, int reals, AtomicBoolean stop, List<Thread> threads,
                                    TargetNamespace ns) throws IOException {
        if (type.equals("ping")) {
            return 9;
        }
        if (type.equals("tcp")) {
            if (ns != null) {
                ns.startTcpTarget();
                return TargetNamespace.TCP_PORT;
            }
            ServerSocket s = TcpTarget.listen(0);
            threads.add(daemon("tcp-target", () -> TcpTarget.serve(s, stop)));
            return s.getLocalPort();
        }
        // one socket per real address: an answer must come from the address the real was asked on
        Selector selector = Selector.open();
        int port = 0;
        for (int i = 0; i < reals; i++) {
            DatagramChannel c = DatagramChannel.open();
            c.bind(new InetSocketAddress(address.apply(i), port));
            port = ((InetSocketAddress) c.getLocalAddress()).getPort();
            c.configureBlocking(false);
            c.register(selector, SelectionKey.OP_READ);
        }
        threads.add(daemon("udp-target", () -> {
            ByteBuffer b = ByteBuffer.allocateDirect(2048);
            while (!stop.get()) {
                try {
                    selector.select(200);
                    for (SelectionKey k : selector.selectedKeys()) {
                        DatagramChannel c = (DatagramChannel) k.channel();
                        b.clear();
                        java.net.SocketAddress from = c.receive(b);
                        if (from != null) {
                            b.flip();
                            c.send(b, from);
                        }
                    }
                    selector.selectedKeys().clear();
                } catch (IOException e) {
                    return;
                }
            }
        }));
        return port;
    }

    private static void echo(DatagramSocket u, AtomicBoolean stop, java.util.function.BooleanSupplier silent) {
        byte[] b = new byte[2048];
        while (!stop.get()) {
            DatagramPacket p = new DatagramPacket(b, b.length);
            try {
                u.receive(p);
                if (!silent.getAsBoolean()) {
                    u.send(new DatagramPacket(b, p.getLength(), p.getSocketAddress()));
                }
            } catch (SocketTimeoutException e) {
                // look at stop
            } catch (IOException e) {
                return;
            }
        }
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** A real with a UDP echo of its own, that goes silent on command. */
    private static final class Victim {
        final DatagramSocket socket;
        volatile boolean silent;

        Victim(String address, AtomicBoolean stop) throws IOException {
            socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
            socket.setSoTimeout(200);
            daemon("victim-" + address, () -> echo(socket, stop, () -> silent));
        }

        String address() {
            return socket.getLocalAddress().getHostAddress();
        }
    }
}
