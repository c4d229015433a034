package io.mclb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mclb check} through the real command line (picocli), as an operator runs it: the exit
 * code and the {@code file:line: message} lines are the contract (DESIGN section 5).
 */
class CheckCommandTest extends CommandLineTest {
    @TempDir
    Path tmp;

    @Test
    void exampleConfigurationIsValid() {
        // surefire runs in the module directory, where the shipped examples live
        int rc = mclb("check", "-c", "examples/udp-echo.cfg");

        assertThat(rc).as("stderr: %s", stderr()).isZero();
        assertThat(stdout()).isEqualTo("examples/udp-echo.cfg: OK (1 server farm(s), 1 virtual server(s))\n");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void everyShippedExampleIsValidWithoutWarnings() throws Exception {
        java.util.List<Path> examples;
        try (var files = Files.list(Path.of("examples"))) {
            examples = files.filter(f -> f.toString().endsWith(".cfg")).sorted().toList();
        }
        assertThat(examples).as("GTP, RADIUS, HA and UDP examples").hasSizeGreaterThanOrEqualTo(4);
        for (Path f : examples) {
            int rc = mclb("check", "-c", f.toString());
            assertThat(rc).as("%s: %s", f, stderr()).isZero();
            assertThat(stdout()).startsWith(f + ": OK (");
            assertThat(stderr()).as("%s has no warnings", f).isEmpty();
        }
    }

    @Test
    void everyBadLineIsReportedWithFileAndLineAndExitIsOne() throws Exception {
        Path bad = tmp.resolve("bad.cfg");
        Files.writeString(bad, String.join("\n",
                "! three bad lines",
                "mclb admin 127.0.0.1 99999",
                "ip slb serverfarm F",
                " real 10.0.0.1 2123",
                "  weight 70000",
                "  inservice",
                " predictor fastest",
                "ip slb vserver V",
                " virtual 10.0.0.100 udp 2123",
                " serverfarm F",
                " inservice", ""));

        int rc = mclb("check", "-c", bad.toString());

        assertThat(rc).isEqualTo(1);
        assertThat(stdout()).isEmpty();
        assertThat(stderr().lines()).containsExactly(
                bad + ":2: mclb admin 127.0.0.1 port 99999: out of range, allowed 1..65535",
                bad + ":5: weight 70000: out of range, allowed 0..65535",
                bad + ":7: predictor fastest: unknown algorithm, allowed roundrobin, leastconns, route-map NAME",
                bad + ": 3 error(s)");
    }

    @Test
    void ignoredIosLineIsAWarningNotAnError() throws Exception {
        Path cfg = tmp.resolve("ios.cfg");
        Files.writeString(cfg, String.join("\n",
                "ip slb serverfarm F",
                " real 10.0.0.1 2123",
                "  inservice",
                " nat server",
                "ip slb vserver V",
                " virtual 10.0.0.100 udp 2123",
                " serverfarm F",
                " inservice", ""));

        int rc = mclb("check", "-c", cfg.toString());

        assertThat(rc).as("stderr: %s", stderr()).isZero();
        assertThat(stderr().lines()).containsExactly(cfg + ":4: warning: ignored 'nat server': not used by mclb"
                + " (mclb always proxies from its own address, as IOS 'nat server' directed mode does)");
        assertThat(stdout()).isEqualTo(cfg + ": OK (1 server farm(s), 1 virtual server(s), 1 warning(s))\n");
    }

    @Test
    void missingFileExitsOne() {
        Path none = tmp.resolve("absent.cfg");

        int rc = mclb("check", "-c", none.toString());

        assertThat(rc).isEqualTo(1);
        assertThat(stderr().lines()).containsExactly("config " + none + ": no such file");
    }

    @Test
    void aFileThatIsNotUtf8IsNamedWithItsLine() throws Exception {
        Path latin1 = tmp.resolve("latin1.cfg");
        Files.write(latin1, "ip slb serverfarm F\n real 10.0.0.1\n! caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

        int rc = mclb("check", "-c", latin1.toString());

        assertThat(rc).isEqualTo(1);
        assertThat(stderr().lines()).containsExactly(
                "config " + latin1 + ":3: not UTF-8 text (byte 0xe9): save the file as UTF-8 or ASCII");
    }

    /** An HA pair's vserver of {@code service} with {@code replicate casa} at line 11. */
    private Path replicating(String service, int port) throws Exception {
        Path cfg = tmp.resolve(service + ".cfg");
        Files.writeString(cfg, String.join("\n",
                "interface eth0",
                " ip address 10.0.0.2 255.255.255.0",
                " standby 1 ip 10.0.0.100",
                " standby 1 name HA",
                "ip slb serverfarm F",
                " real 10.0.1.1",
                "  inservice",
                "ip slb vserver V",
                " virtual 10.0.0.100 udp " + port + " service " + service,
                " serverfarm F",
                " replicate casa 10.0.0.2 10.0.0.3 4231 password 0 secret",
                " inservice standby HA", ""));
        return cfg;
    }

    @Test
    void replicateOnGtpWithoutInspectionIsRefusedAtItsLine() throws Exception {
        Path cfg = replicating("gtp", 2123);
        int rc = mclb("check", "-c", cfg.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(stderr().lines()).containsExactly(
                cfg + ":11: vserver V: replicate casa on service gtp: IOS supports stateful backup for GTP only with "
                        + "cause code inspection: use 'service gtp-inspect', or drop the replicate casa line",
                cfg + ": 1 error(s)");
    }

    @Test
    void replicateOnTheHomeAgentDirectorIsRefusedOnceAtItsLine() throws Exception {
        Path cfg = replicating("ipmobile", 434);
        int rc = mclb("check", "-c", cfg.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(stderr().lines()).filteredOn(l -> l.contains("stateful backup")).singleElement().asString()
                .startsWith(cfg + ":11: ").contains("IOS has no stateful backup for the Home Agent Director");
    }

    @Test
    void replicateOnGtpWithInspectionIsAccepted() throws Exception {
        Path cfg = replicating("gtp-inspect", 2123);
        int rc = mclb("check", "-c", cfg.toString());
        assertThat(rc).as("stderr: %s", stderr()).isZero();
    }
}
