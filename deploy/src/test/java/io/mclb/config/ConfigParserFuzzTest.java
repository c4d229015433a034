package io.mclb.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.service.Modules;
import io.mclb.testing.FuzzCorpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the configuration parser with every module's syntax (the grammar {@code mclb run}
 * and {@code mclb check} use, and the one a standby applies to a replicated configuration); seeds
 * in fuzz/config/ (the shipped examples, the IOS reference configurations, test configurations).
 * Any text either parses or fails with {@link ConfigException} whose every error is
 * {@code fuzz.cfg:LINE: message} with a line of the text; nothing else is thrown. A configuration
 * that parses is written as {@code show running-config} writes it, and that text parses again
 * into the same running configuration.
 */
@Tag("fuzz")
class ConfigParserFuzzTest {
    private static final Grammar GRAMMAR = Modules.load().grammar();
    /** Relative paths in a fuzzed text resolve here, a directory that does not exist: nothing is read or written. */
    private static final Path BASE = Path.of("target", "fuzz-config-base-that-does-not-exist").toAbsolutePath();

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("config");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void parseOrExplain(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        long lines = text.lines().count();
        MclbConfig c;
        try {
            c = ConfigParser.parse("fuzz.cfg", text, BASE, GRAMMAR);
        } catch (ConfigException e) {
            assertThat(e.errors()).isNotEmpty().allSatisfy(err -> {
                assertThat(err.file()).isEqualTo("fuzz.cfg");
                assertThat((long) err.line()).isBetween(0L, lines + 1);
                assertThat(err.message()).isNotBlank();
                assertThat(err.warning()).isFalse();
            });
            return;
        }
        String running = ConfigWriter.write(c);
        String again;
        try {
            again = ConfigWriter.write(ConfigParser.parse("running.cfg", running, BASE, GRAMMAR));
        } catch (ConfigException e) {
            throw new AssertionError("running-config of an accepted configuration does not parse: " + e.errors()
                + "\n" + running, e);
        }
        assertThat(again).as("running-config parses into itself").isEqualTo(running);
    }
}
