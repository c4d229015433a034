package io.mclb.cli;

import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.gtp.sim.GgsnSimulator;
import io.mclb.perf.udp.UdpResponderFarm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mclb sim udp --listen ADDR:PORT ...}: a simulated UDP farm (echo responders);
 * {@code mclb sim gtp --listen ADDR:PORT ...}: a GGSN/PGW simulator (GTP v0/v1/v2) for tests and load.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run protocol simulators on loopback (udp: echo responders; gtp: GGSN/PGW).")
public final class SimCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "simulator: udp | gtp")
    String kind;

    @Option(names = {"-l", "--listen"}, required = true, split = ",",
            description = "ADDR:PORT to answer on (repeat or comma-separate for a farm)")
    List<String> listen;

    @Option(names = "--duration", description = "seconds to run (default: until Ctrl-C)")
    long durationSeconds;

    @Option(names = "--cause-mix", description = "gtp: v0/v1 create causes CAUSE:WEIGHT,... (default ${DEFAULT-VALUE})",
            defaultValue = "128")
    String causeMix;

    @Option(names = "--cause-mix-v2", description = "gtp: v2 create causes (default: the v1 mix mapped, 128->16, 199->73 ...)")
    String causeMixV2;

    @Option(names = "--latency-us", description = "gtp: delay every response (default ${DEFAULT-VALUE})", defaultValue = "0")
    long latencyMicros;

    @Option(names = "--recovery", description = "gtp: restart counter 0..255 (default ${DEFAULT-VALUE})", defaultValue = "1")
    int recovery;

    @Option(names = "--seed", description = "gtp: seed of the cause draws (default ${DEFAULT-VALUE})", defaultValue = "1")
    long seed;

    @Override
    public Integer call() throws Exception {
        if (!kind.equals("udp") && !kind.equals("gtp")) {
            System.err.println("mclb sim: unknown simulator '" + kind + "', available: udp, gtp");
            return 2;
        }
        List<InetSocketAddress> addrs = new ArrayList<>();
        for (String l : listen) {
            addrs.add(Addresses.parse(l));
        }
        if (kind.equals("gtp")) {
            return runGtp(addrs);
        }
        try (UdpResponderFarm farm = UdpResponderFarm.start(addrs)) {
            System.out.println("mclb sim udp: answering on " + farm.boundAddresses());
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long last = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long now = farm.totalReceived();
                System.out.printf("received %d/s (total %d)%n", now - last, now);
                last = now;
            }
        }
        return 0;
    }

    private int runGtp(List<InetSocketAddress> addrs) throws InterruptedException {
        GgsnSimulator.Builder b = GgsnSimulator.builder().causeMix(CauseMix.parse(causeMix)).latencyMicros(latencyMicros)
                .recovery(recovery).seed(seed);
        if (causeMixV2 != null) {
            b.causeMixV2(CauseMix.parse(causeMixV2));
        }
        addrs.forEach(b::listen);
        try (GgsnSimulator sim = b.start()) {
            System.out.println("mclb sim gtp: answering on " + sim.boundAddresses() + " (recovery " + sim.recovery()
                    + ", causes " + causeMix + ")");
            long end = durationSeconds > 0 ? System.nanoTime() + durationSeconds * 1_000_000_000L : Long.MAX_VALUE;
            long last = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(1000);
                long creates = 0;
                for (int v = 0; v <= 2; v++) {
                    creates += sim.received(v, v == 2 ? 32 : 16);
                }
                System.out.printf("creates %d/s (total %d)  sessions %d  malformed %d%n", creates - last, creates,
                        sim.activeSessions(), sim.malformed());
                last = creates;
            }
        }
        return 0;
    }
}
