package io.mclb.cli;

import io.mclb.perf.udp.UdpResponderFarm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code mclb sim udp --listen ADDR:PORT ...}: a simulated UDP farm (echo responders) for tests and load. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run protocol simulators on loopback (udp: echo responders).")
public final class SimCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "simulator: udp")
    String kind;

    @Option(names = {"-l", "--listen"}, required = true, split = ",",
            description = "ADDR:PORT to answer on (repeat or comma-separate for a farm)")
    List<String> listen;

    @Option(names = "--duration", description = "seconds to run (default: until Ctrl-C)")
    long durationSeconds;

    @Override
    public Integer call() throws Exception {
        if (!kind.equals("udp")) {
            System.err.println("mclb sim: unknown simulator '" + kind + "', available: udp");
            return 2;
        }
        List<InetSocketAddress> addrs = new ArrayList<>();
        for (String l : listen) {
            addrs.add(Addresses.parse(l));
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
}
