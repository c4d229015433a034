package io.mclb.cli;

import io.mclb.feedback.dfp.DfpWire;
import io.mclb.feedback.sidecar.LoadInput;
import io.mclb.feedback.sidecar.SidecarAgent;
import io.mclb.feedback.sidecar.WeightFormula;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;

/**
 * {@code mclb dfp-agent}: the DFP agent sidecar ({@link SidecarAgent}); this class only reads the
 * command line and prints one line per weight change.
 */
@Command(name = "dfp-agent", mixinStandardHelpOptions = true,
        description = "Serve DFP weights for a real that has no agent of its own (osmo-ggsn, a PGW, AAA, a home agent),"
                + " computed from its load: --current prometheus:URL#METRIC | file:PATH | command:CMD | osmo-vty:HOST:PORT.")
public final class DfpAgentCommand implements Callable<Integer> {
    @Option(names = "--listen", required = true, description = "ADDR:PORT managers connect to (the agent line's IP and PORT)")
    String listen;

    @Option(names = "--real", required = true, description = "the real's IPv4 address, as the managers' farms name it")
    String real;

    @Option(names = "--port", description = "the real's port in the report, 0 = any (default ${DEFAULT-VALUE})",
            defaultValue = "0")
    int port;

    @Option(names = "--protocol", description = "any | udp | tcp (default ${DEFAULT-VALUE})", defaultValue = "any")
    String protocol;

    @Option(names = "--bind-id", description = "bind ID of the farms to reach (default ${DEFAULT-VALUE})", defaultValue = "0")
    int bindId;

    @Option(names = "--formula", description = "ggsn (PDP contexts) | binding (home agent, ASN-GW) (default ${DEFAULT-VALUE})",
            defaultValue = "ggsn")
    String formula;

    @Option(names = "--current", required = true, description = "where to read the PDP contexts or bindings in use")
    String current;

    @Option(names = "--extract", description = "regex whose first group, summed over matches, is the value of a file/command input"
            + " (default: the first number)")
    String extract;

    @Option(names = "--max", description = "maximum PDP contexts or bindings (default: 10000 for ggsn, 235000 for binding)")
    Long capacity;

    @Option(names = "--max-weight", description = "weight of an idle real (default: 8 for ggsn, 24 for binding)")
    Integer maxWeight;

    @Option(names = "--cpu-free", description = "input giving idle CPU, share 0..1 or percent (default: not weighed)")
    String cpuFree;

    @Option(names = "--mem-free", description = "input giving free memory, share 0..1 or percent (default: not weighed)")
    String memFree;

    @Option(names = "--interval", description = "seconds between reads and reports (default ${DEFAULT-VALUE})", defaultValue = "5")
    int interval;

    @Option(names = "--password-file", description = "file holding the DFP password (the managers' 'ip slb dfp password')")
    Path passwordFile;

    @Override
    public Integer call() throws Exception {
        WeightFormula f = WeightFormula.valueOf(formula.toUpperCase(Locale.ROOT));
        Pattern x = extract == null ? null : Pattern.compile(extract);
        int proto = switch (protocol.toLowerCase(Locale.ROOT)) {
            case "any" -> DfpWire.PROTOCOL_ANY;
            case "udp" -> DfpWire.PROTOCOL_UDP;
            case "tcp" -> DfpWire.PROTOCOL_TCP;
            default -> throw new IllegalArgumentException("--protocol " + protocol + ": allowed any, udp, tcp");
        };
        if (interval < 1) {
            throw new IllegalArgumentException("--interval " + interval + ": allowed 1 or more seconds");
        }
        String password = passwordFile == null ? null : Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        SidecarAgent.Settings s = new SidecarAgent.Settings(Addresses.parse(listen), InetAddress.getByName(real), port,
                proto, bindId, f, LoadInput.parse(current, x), capacity == null ? f.defaultCapacity() : capacity,
                maxWeight == null ? f.defaultMaxWeight() : maxWeight,
                cpuFree == null ? null : LoadInput.parse(cpuFree, x), memFree == null ? null : LoadInput.parse(memFree, x),
                interval, password);
        CountDownLatch stop = new CountDownLatch(1);
        try (SidecarAgent agent = new SidecarAgent(s, NanoClock.system(), new SimpleMeterRegistry(), sample ->
                System.out.println(sample.error() != null
                        ? "dfp-agent: no weight (" + sample.error() + "): managers use their static weights"
                        : String.format("dfp-agent: weight %d for %s (current %.0f of %d, cpu free %.2f, mem free %.2f)",
                                sample.weight(), real, sample.current(), s.capacity(), sample.cpuFree(), sample.memFree())))) {
            System.out.println("dfp-agent: serving DFP on " + agent.localAddress() + " for real " + real
                    + " (" + f.name().toLowerCase(Locale.ROOT) + " formula, every " + interval + " s)");
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "dfp-agent-stop"));
            stop.await();
        }
        return 0;
    }
}
