package io.mclb.cli;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.config.RealConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.perf.gtp.load.GtpLoadGenerator;
import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.gtp.sim.GgsnSimulator;
import io.mclb.perf.udp.UdpResponderFarm;
import io.mclb.perf.udp.UdpTrafficGenerator;
import io.mclb.server.MclbServer;
import io.mclb.server.StartupOverrides;
import io.mclb.service.Modules;
import io.micrometer.core.instrument.Counter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * {@code mclb demo}: mclb with a built-in configuration, a simulated UDP farm and light traffic,
 * all on loopback; a one-line summary per second; ends on Ctrl-C or after {@code --duration}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run mclb with a simulated farm and light traffic on loopback; no configuration needed.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--duration", description = "seconds to run (default: until Ctrl-C)")
    long durationSeconds;

    @Option(names = "--rate", description = "requests per second (default ${DEFAULT-VALUE})", defaultValue = "300")
    long rate = 300;

    @Option(names = "--flows", description = "client flows (default ${DEFAULT-VALUE})", defaultValue = "60")
    int flows = 60;

    @Option(names = "--admin", paramLabel = "ADDR:PORT",
            description = "admin listener (default ${DEFAULT-VALUE}, where 'mclb show' looks by default)",
            defaultValue = "127.0.0.1:8080")
    String admin = "127.0.0.1:8080";

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "keep the demo's sticky tables here (default: a temporary directory, deleted on exit)")
    Path dataDir;

    private volatile boolean stop;

    @Override
    public Integer call() throws Exception {
        Path work = Files.createTempDirectory("mclb-demo");
        String text;
        try (InputStream in = DemoCommand.class.getResourceAsStream("/io/mclb/demo.cfg")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Modules modules = Modules.load();
        MclbConfig config = ConfigParser.parse("demo.cfg", text, work, modules.grammar());
        VirtualServerConfig vs = config.vservers().get("DEMO-UDP");
        VirtualServerConfig gtpVs = config.vservers().get("DEMO-GTP");
        List<InetSocketAddress> reals = new ArrayList<>();
        for (RealConfig r : config.farms().get(vs.farm()).reals()) {
            reals.add(new InetSocketAddress(r.address(), r.port()));
        }
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop = true;
            try {
                finished.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mclb-demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        List<GgsnSimulator> ggsns = new ArrayList<>();
        try (UdpResponderFarm farm = UdpResponderFarm.start(reals);
             AutoCloseable closeGgsns = () -> ggsns.forEach(GgsnSimulator::close);
             MclbServer server = MclbServer.start(null, startGgsns(config, gtpVs, ggsns), modules,
                     new StartupOverrides(Addresses.parse(admin), dataDir));
             UdpTrafficGenerator traffic = UdpTrafficGenerator.builder()
                     .target(new InetSocketAddress(vs.address(), vs.port()))
                     .source(InetAddress.getByName("127.0.0.1")).flows(flows).ratePerSecond(rate)
                     .timeoutMs(1000).start();
             GtpLoadGenerator sgsn = GtpLoadGenerator.builder()
                     .target(new InetSocketAddress(gtpVs.address(), gtpVs.port()))
                     .source(InetAddress.getByName("127.0.0.1")).version(1).sockets(2)
                     .ratePerSecond(Math.max(1, rate / 3)).imsiBase(262010000000000L).imsiCount(5000)
                     .timeoutMs(2000).start()) {
            var listener = server.admin().address();
            System.out.printf("mclb demo: vserver %s %s:%d -> farm %s %s%n", vs.name(), vs.address().getHostAddress(),
                    vs.port(), vs.farm(), describe(config, vs.farm()));
            String at = listener.getAddress().getHostAddress() + ":" + listener.getPort();
            // ./mclb from a clone says so; the packaged /usr/bin/mclb is on the PATH
            String self = System.getProperty("mclb.launcher", "mclb");
            System.out.printf("metrics: http://%s/metrics   try: %s show reals%s%n", at, self,
                    at.equals(AdminTarget.DEFAULT) ? "" : " --admin " + at);
            System.out.printf("mclb demo: vserver %s %s:%d (gtp-inspect, IMSI sticky) -> farm %s %s%n", gtpVs.name(),
                    gtpVs.address().getHostAddress(), gtpVs.port(), gtpVs.farm(), describe(config, gtpVs.farm()));
            long[] lastReal = new long[farm.size()];
            long lastCreates = 0;
            long lastSent = 0;
            long lastAnswered = 0;
            long start = System.nanoTime();
            long seconds = 0;
            while (!stop && (durationSeconds <= 0 || seconds < durationSeconds)) {
                long next = start + (seconds + 1) * 1_000_000_000L;
                while (!stop && System.nanoTime() < next) {
                    Thread.sleep(Math.max(1, Math.min(100, (next - System.nanoTime()) / 1_000_000)));
                }
                seconds++;
                UdpTrafficGenerator.Snapshot s = traffic.snapshot();
                StringBuilder split = new StringBuilder();
                for (int i = 0; i < farm.size(); i++) {
                    long r = farm.received(i);
                    split.append(' ').append(reals.get(i).getAddress().getHostAddress()).append('=')
                            .append(r - lastReal[i]);
                    lastReal[i] = r;
                }
                System.out.printf("[%4ds] requests %5d/s  answers %5d/s  split%s  drops %d  flows %d  p99 %.2f ms%n",
                        seconds, s.sent() - lastSent, s.answered() - lastAnswered, split, drops(server),
                        server.runtime().vservers().get(vs.name()).flows(),
                        traffic.driver().recentLatencyMicros(99) / 1000.0);
                lastSent = s.sent();
                lastAnswered = s.answered();
                GtpLoadGenerator.Snapshot g = sgsn.snapshot();
                StringBuilder sessions = new StringBuilder();
                for (var r : server.runtime().farms().get(gtpVs.farm()).reals()) {
                    sessions.append(' ').append(r.address().getHostAddress()).append('=').append(r.activeConnections());
                }
                System.out.printf("        gtp creates %4d/s  accepted (total) %d  rejects seen by SGSN %d  sessions%s  "
                                + "cause 199 hidden and re-sent %d%n", g.creates() - lastCreates, g.accepted(), g.rejected(),
                        sessions, (long) counter(server, "mclb.reassignments", "vserver", gtpVs.name(), "reason", "cause"));
                lastCreates = g.creates();
            }
            UdpTrafficGenerator.Snapshot s = traffic.snapshot();
            System.out.printf("mclb demo: %d requests, %d answered, %d lost, p50 %.2f ms, p99 %.2f ms%n", s.sent(),
                    s.answered(), s.lost(), s.p50Micros() / 1000.0, s.p99Micros() / 1000.0);
        } finally {
            deleteTree(work);
            finished.countDown();
            if (!stop) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        }
        return 0;
    }

    /** Three GGSN simulators on the demo farm's addresses; the last one often has no resources. */
    private static MclbConfig startGgsns(MclbConfig config, VirtualServerConfig gtpVs, List<GgsnSimulator> out) {
        List<RealConfig> rs = config.farms().get(gtpVs.farm()).reals();
        for (int i = 0; i < rs.size(); i++) {
            RealConfig r = rs.get(i);
            out.add(GgsnSimulator.builder().listen(new InetSocketAddress(r.address(), r.port()))
                    .causeMix(i == rs.size() - 1 ? CauseMix.parse("128:80,199:20") : CauseMix.fixed(128))
                    .seed(42 + i).start());
        }
        return config;
    }

    private static double counter(MclbServer server, String name, String... tags) {
        double total = 0;
        for (Counter c : server.runtime().registry().find(name).tags(tags).counters()) {
            total += c.count();
        }
        return total;
    }

    private static String describe(MclbConfig c, String farm) {
        StringBuilder sb = new StringBuilder("(");
        for (RealConfig r : c.farms().get(farm).reals()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(r.address().getHostAddress()).append(':').append(r.port()).append(" weight ").append(r.weight());
        }
        return sb.append(')').toString();
    }

    private static long drops(MclbServer server) {
        double total = 0;
        for (Counter c : server.runtime().registry().find("mclb.drops").counters()) {
            total += c.count();
        }
        return (long) total;
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }

}
