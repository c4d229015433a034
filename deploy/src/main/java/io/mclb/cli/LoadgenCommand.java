package io.mclb.cli;

import io.mclb.perf.udp.UdpTrafficGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code mclb loadgen udp -t ADDR:PORT}: paced (or closed-loop) UDP request/response load with
 * loss and latency; bounded by {@code --duration}. For the C reference tool see perf/bench.
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
        description = "Generate UDP request/response load against a virtual server (loopback or your own namespaces).")
public final class LoadgenCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "generator: udp")
    String kind;

    @Option(names = {"-t", "--target"}, required = true, description = "ADDR:PORT")
    String target;

    @Option(names = "--rate", description = "requests/s, 0 = closed loop (default ${DEFAULT-VALUE})", defaultValue = "1000")
    long rate;

    @Option(names = "--flows", description = "client sockets (default ${DEFAULT-VALUE})", defaultValue = "64")
    int flows;

    @Option(names = "--window", description = "closed loop: requests outstanding per flow (default ${DEFAULT-VALUE})",
            defaultValue = "4")
    int window;

    @Option(names = "--source", description = "first source address (default ${DEFAULT-VALUE})", defaultValue = "127.0.0.1")
    String source;

    @Option(names = "--sources", description = "spread flows over this many consecutive source addresses (default ${DEFAULT-VALUE})",
            defaultValue = "1")
    int sources;

    @Option(names = "--duration", description = "seconds (default ${DEFAULT-VALUE}, at most 600)", defaultValue = "10")
    long durationSeconds;

    @Option(names = "--timeout-ms", description = "a request unanswered this long is lost (default ${DEFAULT-VALUE})",
            defaultValue = "1000")
    long timeoutMs;

    @Override
    public Integer call() throws Exception {
        if (!kind.equals("udp")) {
            System.err.println("mclb loadgen: unknown generator '" + kind + "', available: udp");
            return 2;
        }
        long seconds = Math.max(1, Math.min(600, durationSeconds));
        UdpTrafficGenerator.Builder b = UdpTrafficGenerator.builder().target(Addresses.parse(target))
                .source(InetAddress.getByName(source)).sourceCount(sources).flows(flows).timeoutMs(timeoutMs)
                .maxDuration(Duration.ofSeconds(seconds));
        if (rate > 0) {
            b.ratePerSecond(rate);
        } else {
            b.ratePerSecond(0).windowPerFlow(window);
        }
        try (UdpTrafficGenerator g = b.start()) {
            long lastSent = 0;
            long lastAnswered = 0;
            for (long s = 1; !g.isDone() && s <= seconds + timeoutMs / 1000 + 2; s++) {
                Thread.sleep(1000);
                UdpTrafficGenerator.Snapshot x = g.snapshot();
                System.out.printf("[%3ds] sent %6d/s  answered %6d/s  lost %d  p50 %.3f ms  p99 %.3f ms%n", s,
                        x.sent() - lastSent, x.answered() - lastAnswered, x.lost(), x.p50Micros() / 1000.0,
                        x.p99Micros() / 1000.0);
                lastSent = x.sent();
                lastAnswered = x.answered();
            }
            UdpTrafficGenerator.Snapshot x = g.snapshot();
            System.out.printf("RESULT sent=%d answered=%d lost=%d rps=%d p50_us=%d p99_us=%d max_us=%d%n", x.sent(),
                    x.answered(), x.lost(), x.answered() / seconds, x.p50Micros(), x.p99Micros(), x.maxMicros());
            return x.lost() == 0 ? 0 : 1;
        }
    }
}
