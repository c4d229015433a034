package io.mclb.cli;

import io.mclb.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * IOS's stateful-backup rules at {@code mclb check}, through the real command line and every module:
 * {@code replicate casa} is refused on {@code service gtp} (no cause code inspection) and on
 * {@code service ipmobile} (Home Agent Director), each once at the replicate line with the reason,
 * and accepted on {@code service gtp-inspect}.
 */
class StatefulBackupCheckTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @TempDir
    Path tmp;

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

    private Path config(String service, int port) throws Exception {
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
        Path cfg = config("gtp", 2123);
        int rc = new CommandLine(new Main()).execute("check", "-c", cfg.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                cfg + ":11: vserver V: replicate casa on service gtp: IOS supports stateful backup for GTP only with "
                        + "cause code inspection: use 'service gtp-inspect', or drop the replicate casa line",
                cfg + ": 1 error(s)");
    }

    @Test
    void replicateOnTheHomeAgentDirectorIsRefusedOnceAtItsLine() throws Exception {
        Path cfg = config("ipmobile", 434);
        int rc = new CommandLine(new Main()).execute("check", "-c", cfg.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines())
                .filteredOn(l -> l.contains("stateful backup")).singleElement().asString()
                .startsWith(cfg + ":11: ").contains("IOS has no stateful backup for the Home Agent Director");
    }

    @Test
    void replicateOnGtpWithInspectionIsAccepted() throws Exception {
        Path cfg = config("gtp-inspect", 2123);
        int rc = new CommandLine(new Main()).execute("check", "-c", cfg.toString());
        assertThat(rc).as("stderr: %s", err).isZero();
    }
}
