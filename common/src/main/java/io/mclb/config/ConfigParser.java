package io.mclb.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.mclb.service.ConfigSyntax;

/**
 * Reads the IOS-SLB-compatible configuration language into an immutable {@link MclbConfig}.
 *
 * <p>Each line is tried against the core grammar first, then offered to each {@link ConfigSyntax}
 * extension, then checked against the IOS lines mclb deliberately ignores (a warning naming the
 * line); anything else is an error. After parsing, {@link ConfigValidator} runs the engine's
 * cross-object rules and then each extension's. Every error found is reported at once, in line
 * order, as {@code file:line: message}.
 */
public final class ConfigParser {

    private static final Comparator<ConfigError> LINE_ORDER =
            Comparator.comparing(ConfigError::file).thenComparingInt(ConfigError::line);

    private ConfigParser() {
    }

    /** Reads a file; relative paths inside it resolve against the file's directory. */
    public static MclbConfig parse(Path file, Grammar grammar) throws ConfigException, IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Path dir = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, dir, file, grammar);
    }

    /** {@link #parse(Path, Grammar)} with syntaxes only (no probe types). */
    public static MclbConfig parse(Path file, List<ConfigSyntax> extensions) throws ConfigException, IOException {
        return parse(file, Grammar.of(extensions));
    }

    /**
     * Parses text (e.g. replicated from a peer or written by a test).
     *
     * @param fileName names the source in errors
     * @param baseDir  relative paths resolve against it; null leaves them relative
     * @return the configuration, whose {@link MclbConfig#sourceFile()} is null
     */
    public static MclbConfig parse(String fileName, String text, Path baseDir, Grammar grammar)
            throws ConfigException {
        return parse(fileName, text, baseDir, null, grammar);
    }

    /** {@link #parse(String, String, Path, Grammar)} with syntaxes only (no probe types). */
    public static MclbConfig parse(String fileName, String text, Path baseDir, List<ConfigSyntax> extensions)
            throws ConfigException {
        return parse(fileName, text, baseDir, null, Grammar.of(extensions));
    }

    private static MclbConfig parse(String fileName, String text, Path baseDir, Path source,
                                    Grammar grammar) throws ConfigException {
        List<ConfigSyntax> extensions = grammar.syntaxes();
        ParseContext ctx = new ParseContext(fileName, grammar);
        GlobalParser g = new GlobalParser(ctx, baseDir);
        g.parse(Tokenizer.tree(text));
        List<ConfigError> warnings = new ArrayList<>(ctx.warnings);
        // the lines ignored while parsing are visible to the extensions' rules (an IOS line a service forbids)
        MclbConfig parsed = new MclbConfig(g.global(), g.farms, g.vservers, g.extensions, ctx.warnings, source);
        List<ConfigError> errors = new ArrayList<>(ctx.errors);
        ConfigValidator.validate(parsed, extensions, ctx.index(), new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef at, String message) {
                errors.add(ConfigError.error(at, message));
            }

            @Override
            public void warning(SourceRef at, String message) {
                warnings.add(ConfigError.warning(at, message));
            }
        });
        if (!errors.isEmpty()) {
            errors.sort(LINE_ORDER);
            throw new ConfigException(errors);
        }
        warnings.sort(LINE_ORDER);
        return new MclbConfig(parsed.global(), parsed.farms(), parsed.vservers(), parsed.globalExtensions(), warnings,
                source);
    }
}
