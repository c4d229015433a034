package io.mclb.config;

import io.mclb.service.ConfigSyntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: {@code config/valid/X.cfg} must parse and write exactly {@code X.expected}, and
 * the written form must parse back to the same settings; {@code config/invalid/X.cfg} must fail
 * with exactly the errors listed in its leading {@code ! expect: file:line: message} comments.
 */
class ConfigGoldenTest {

    static final Path BASE_DIR = Path.of("/etc/mclb");
    static final List<ConfigSyntax> EXTENSIONS = List.of(new FakeSyntax());

    static Stream<Path> valid() throws IOException, URISyntaxException {
        return files("valid");
    }

    static Stream<Path> invalid() throws IOException, URISyntaxException {
        return files("invalid");
    }

    private static Stream<Path> files(String dir) throws IOException, URISyntaxException {
        Path root = Path.of(ConfigGoldenTest.class.getResource("/config/" + dir).toURI());
        try (Stream<Path> s = Files.list(root)) {
            List<Path> cfgs = s.filter(p -> p.toString().endsWith(".cfg")).sorted().toList();
            assertThat(cfgs).as("golden files in " + dir).isNotEmpty();
            return cfgs.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void validFileWritesExpectedRunningConfigAndRoundTrips(Path cfg) throws Exception {
        String name = cfg.getFileName().toString();
        MclbConfig parsed = ConfigParser.parse(name, read(cfg), BASE_DIR, EXTENSIONS);
        String written = ConfigWriter.write(parsed);
        Path expected = cfg.resolveSibling(name.replace(".cfg", ".expected"));
        assertThat(written).isEqualTo(read(expected));

        MclbConfig again = ConfigParser.parse("written.cfg", written, BASE_DIR, EXTENSIONS);
        ConfigAssert.assertSameSettings(again, parsed);
        assertThat(ConfigWriter.write(again)).isEqualTo(written);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidFileReportsExactlyTheExpectedErrors(Path cfg) throws Exception {
        String text = read(cfg);
        List<String> expected = text.lines().filter(l -> l.startsWith("! expect: "))
                .map(l -> l.substring("! expect: ".length())).toList();
        assertThat(expected).as("expect lines in " + cfg).isNotEmpty();

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigParser.parse(cfg.getFileName().toString(), text, BASE_DIR, EXTENSIONS));

        assertThat(e).as("no error for " + cfg).isNotNull();
        assertThat(e.errors()).map(ConfigError::toString).containsExactlyElementsOf(expected);
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }
}
