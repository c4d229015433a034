package io.mclb.cli;

import io.mclb.Main;
import io.mclb.metrics.BuildInfo;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mclb -V} prints the build's version, the one {@code mclb_build_info{version}} exports. */
class VersionTest {
    @Test
    void versionIsTheBuildsProjectVersionWithItsCommit() {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));

        assertThat(cli.execute("-V")).isZero();

        String[] lines = out.toString().split("\n");
        assertThat(lines[0]).isEqualTo("mclb " + BuildInfo.version()).matches("mclb \\d+\\.\\d+\\.\\d+.*");
        assertThat(lines[1]).isEqualTo("commit " + BuildInfo.commit() + ", Java " + System.getProperty("java.version"));
    }
}
