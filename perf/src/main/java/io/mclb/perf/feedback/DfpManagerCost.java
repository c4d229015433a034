package io.mclb.perf.feedback;

import io.mclb.config.SourceRef;
import io.mclb.farm.RealServer;
import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.feedback.FeedbackLines.ManagerConfig;
import io.mclb.feedback.dfp.DfpAgentServer;
import io.mclb.feedback.dfp.DfpManager;
import io.mclb.feedback.dfp.DfpWeights;
import io.mclb.feedback.dfp.DfpWire;
import io.mclb.feedback.dfp.HostWeight;
import io.mclb.net.Transports;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What DFP costs mclb's manager, measured on its own event-loop thread (CPU time from
 * {@link ThreadMXBean}, so the agents' cost, on another thread, is not counted):
 * <ol>
 * <li>baseline: the manager with its timers and no agent, for {@code seconds};</li>
 * <li>{@code agents} mclb DFP agents on loopback reporting every second (each report a new weight),
 *     for the same {@code seconds};</li>
 * <li>latency: a sudden change (weight to 0 and back) from agent to the real's operational weight,
 *     which the predictor reads at its next pick, repeated {@code 40} times; and a small change
 *     (no early report), which waits for the next periodic report.</li>
 * </ol>
 * {@code java -cp perf/target/classes:$(cat cp.txt) io.mclb.perf.feedback.DfpManagerCost [agents] [seconds]}
 */
public final class DfpManagerCost {
    private DfpManagerCost() {
    }

    public static void main(String[] args) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        EventLoopGroup managerLoop = Transports.newGroup(1, "cost-manager");
        EventLoopGroup agentLoop = Transports.newGroup(1, "cost-agents");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        NanoClock clock = NanoClock.system();
        AtomicIntegerArray weights = new AtomicIntegerArray(agents);
        List<DfpAgentServer> servers = new ArrayList<>();
        List<RealServer> reals = new ArrayList<>();
        List<DfpWeights.Target> targets = new ArrayList<>();
        List<AgentLine> lines = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            int me = i;
            int address = 0x0a000000 | (i + 1);
            weights.set(i, 8);
            DfpAgentServer s = new DfpAgentServer("a" + i, agentLoop.next(), clock, registry,
                    () -> List.of(new HostWeight(address, 2123, DfpWire.PROTOCOL_UDP, 0, weights.get(me))));
            s.configure(new DfpAgentServer.Settings(new InetSocketAddress("127.0.0.1", 0), null, 0, 1, true));
            servers.add(s);
            RealServer r = new RealServer("F", realConfig(HostWeight.text(address)), clock, null);
            reals.add(r);
            targets.add(new DfpWeights.Target(r, address, new int[] {2123}, 0));
            lines.add(new AgentLine(InetAddress.getByName("127.0.0.1"), s.localAddress().getPort(), 3, 0, 1,
                    SourceRef.NONE));
        }
        DfpManager manager = new DfpManager(managerLoop.next(), clock, registry, new DfpWeights());
        long tid = threadId("cost-manager");
        Thread.sleep(1000);
        long base = cpuOver(tid, seconds);
        manager.configure(new ManagerConfig(null, 180, lines, List.of(), SourceRef.NONE), targets);
        // every agent reports every second; a drifting weight makes every report a real update
        Thread drift = new Thread(() -> {
            for (int t = 0; !Thread.currentThread().isInterrupted(); t++) {
                for (int i = 0; i < agents; i++) {
                    weights.set(i, 20 + ((t + i) & 3));
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Thread.sleep(5000);
        drift.start();
        long loaded = cpuOver(tid, seconds);
        drift.interrupt();
        drift.join();
        long reports = manager.status().stream().mapToLong(DfpManager.AgentStatus::reports).sum();
        double baseCore = 100.0 * base / TimeUnit.SECONDS.toNanos(seconds);
        double loadCore = 100.0 * loaded / TimeUnit.SECONDS.toNanos(seconds);
        System.out.printf("DFP manager thread CPU over %d s: no agents %.3f%% of a core; %d agents reporting"
                        + " every second %.3f%% of a core (ratio %.1f); %d reports applied in all%n", seconds, baseCore,
                agents, loadCore, base == 0 ? Double.NaN : (double) loaded / base, reports);

        long[] sudden = new long[40];
        RealServer r0 = reals.get(0);
        for (int k = 0; k < sudden.length; k++) {
            int next = k % 2 == 0 ? 0 : 8;
            long t0 = System.nanoTime();
            weights.set(0, next);
            while (r0.operWeight() != next) {
                Thread.onSpinWait();
            }
            sudden[k] = System.nanoTime() - t0;
            Thread.sleep(200);
        }
        Arrays.sort(sudden);
        weights.set(0, 8);
        Thread.sleep(2500);
        long t0 = System.nanoTime();
        weights.set(0, 7);
        while (r0.operWeight() != 7) {
            Thread.sleep(1);
        }
        long small = System.nanoTime() - t0;
        System.out.printf("weight change agent -> real (predictor input): sudden change p50 %.2f ms, max %.2f ms"
                        + " (n=%d, early report); small change %.0f ms (next periodic report, interval 1 s)%n",
                sudden[sudden.length / 2] / 1e6, sudden[sudden.length - 1] / 1e6, sudden.length, small / 1e6);
        manager.close();
        servers.forEach(DfpAgentServer::close);
        managerLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        agentLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static io.mclb.config.RealConfig realConfig(String ip) throws Exception {
        return io.mclb.config.RealConfig.defaults(InetAddress.getByName(ip), 0, SourceRef.NONE).withInService(true);
    }

    private static long cpuOver(long tid, int seconds) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long before = mx.getThreadCpuTime(tid);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        return mx.getThreadCpuTime(tid) - before;
    }

    /** The id of the event-loop thread whose name starts with {@code prefix} (started by its first task). */
    private static long threadId(String prefix) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int attempt = 0; attempt < 100; attempt++) {
            for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (t != null && t.getThreadName().startsWith(prefix)) {
                    return t.getThreadId();
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no thread " + prefix);
    }
}
