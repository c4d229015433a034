package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mclb demo}, the first thing an operator runs: its per-second lines and its summary. */
class DemoCommandTest extends CommandLineTest {
    private static final Pattern UDP_LINE = Pattern.compile(
            "^\\[ +(\\d+)s\\] requests +(\\d+)/s +answers +(\\d+)/s .* drops 0 +flows \\d+ +p99 (\\d+\\.\\d\\d) ms$");

    @TempDir
    Path dataDir;

    @Test
    void itRunsWithoutAFarmPrintsALineASecondAndLosesNothing() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int rc = mclb("demo", "--duration", "3", "--admin", "127.0.0.1:" + admin, "--data-dir", dataDir.toString());
        assertThat(rc).as("stderr: %s", stderr()).isZero();
        List<String> lines = stdout().lines().toList();
        List<Matcher> seconds = lines.stream().map(UDP_LINE::matcher).filter(Matcher::matches).toList();
        assertThat(seconds).as("one UDP line a second:%n%s", stdout()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(seconds.get(i).group(1)).isEqualTo(Integer.toString(i + 1));
        }
        Matcher last = seconds.get(2);
        assertThat(Long.parseLong(last.group(3))).as("answers in the third second").isPositive();
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("rejects seen by SGSN 0"));
        assertThat(lines.get(lines.size() - 1)).matches("mclb demo: \\d+ requests, \\d+ answered, 0 lost, p50 .*");
    }
}
