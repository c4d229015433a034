package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.Main;
import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.mobility.MobilitySimulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code mclb loadgen} through the real command line, as a load test script runs it: exit code, RESULT line, errors. */
class LoadgenCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    @Test
    void aSettingOutOfRangeIsNamedByTheOptionTheOperatorTyped() {
        // the generators call them sockets and window; the command line calls them --flows and --window
        assertThat(run("udp", "-t", "127.0.0.1:9", "--flows", "2000")).isEqualTo(2);
        assertThat(run("mip", "-t", "127.0.0.1:9", "--flows", "300")).isEqualTo(2);
        assertThat(run("radius", "-t", "127.0.0.1:9", "--secret", "s", "--window", "300")).isEqualTo(2);
        assertThat(run("gtp", "-t", "127.0.0.1:9", "--timeout-ms", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(String.join("\n",
                "mclb loadgen udp: --flows must be in 1..1024: 2000",
                "mclb loadgen mip: --flows must be in 1..256: 300",
                "mclb loadgen radius: --window must be in 1..256: 300",
                "mclb loadgen gtp: --timeout-ms must be in 1..60000: 0", ""));
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("RESULT");
    }

    @Test
    void aRunAgainstHomeAgentsPrintsItsResultAndExitsZeroWhenNothingIsLost() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (MobilitySimulator sim = MobilitySimulator.homeAgents(List.of(new InetSocketAddress(loopback, 0)),
                CauseMix.fixed(0), 0, 1)) {
            InetSocketAddress at = sim.boundAddresses().get(0);
            int rc = run("mip", "-t", "127.0.0.1:" + at.getPort(), "--rate", "500", "--flows", "2", "--duration", "1");
            String result = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no RESULT line: " + out + err));
            assertThat(rc).as("stderr: %s", err).isZero();
            assertThat(result).startsWith("RESULT kind=mip sent=").contains(" lost=0 ").doesNotContain("answered=0 ");
            assertThat(sim.answered()).isPositive();
        }
    }

    private int run(String... args) {
        String[] full = new String[args.length + 1];
        full[0] = "loadgen";
        System.arraycopy(args, 0, full, 1, args.length);
        return new CommandLine(new Main()).execute(full);
    }
}
