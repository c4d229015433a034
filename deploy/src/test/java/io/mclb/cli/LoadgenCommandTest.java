package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.perf.gtp.sim.CauseMix;
import io.mclb.perf.mobility.MobilitySimulator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code mclb loadgen} through the real command line, as a load test script runs it: exit code, RESULT line, errors. */
class LoadgenCommandTest extends CommandLineTest {

    @Test
    void aSettingOutOfRangeIsNamedByTheOptionTheOperatorTyped() {
        // the generators call them sockets, window, timeoutMs; the command line --flows, --window, --timeout-ms
        assertThat(mclb("loadgen", "udp", "-t", "127.0.0.1:9", "--flows", "2000")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("mclb loadgen udp: --flows must be in 1..1024: 2000\n");
        assertThat(mclb("loadgen", "mip", "-t", "127.0.0.1:9", "--flows", "300")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("mclb loadgen mip: --flows must be in 1..256: 300\n");
        assertThat(mclb("loadgen", "radius", "-t", "127.0.0.1:9", "--secret", "s", "--window", "300")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("mclb loadgen radius: --window must be in 1..256: 300\n");
        assertThat(mclb("loadgen", "gtp", "-t", "127.0.0.1:9", "--timeout-ms", "0")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("mclb loadgen gtp: --timeout-ms must be in 1..60000: 0\n");
        assertThat(stdout()).doesNotContain("RESULT");
    }

    @Test
    void aRunAgainstHomeAgentsPrintsItsResultAndExitsZeroWhenNothingIsLost() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (MobilitySimulator sim = MobilitySimulator.homeAgents(List.of(new InetSocketAddress(loopback, 0)),
                CauseMix.fixed(0), 0, 1)) {
            InetSocketAddress at = sim.boundAddresses().get(0);
            int rc = mclb("loadgen", "mip", "-t", "127.0.0.1:" + at.getPort(), "--rate", "500", "--flows", "2",
                    "--duration", "1");
            String result = stdout().lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no RESULT line: " + stdout() + stderr()));
            assertThat(rc).as("stderr: %s", stderr()).isZero();
            assertThat(result).startsWith("RESULT kind=mip sent=").contains(" lost=0 ").doesNotContain("answered=0 ");
            assertThat(sim.answered()).isPositive();
        }
    }
}
