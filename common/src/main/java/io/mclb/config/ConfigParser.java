package io.mclb.config;

import java.io.IOException;
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
        String text = ConfigFiles.read(file);
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
        Outcome o = run(fileName, text, baseDir, source, grammar);
        if (!o.errors.isEmpty()) {
            throw new ConfigException(o.errors, o.warnings);
        }
        return new MclbConfig(o.parsed.global(), o.parsed.farms(), o.parsed.vservers(), o.parsed.globalExtensions(),
                o.warnings, source);
    }

    /**
     * {@code mclb check --migrate}: how mclb takes every line of a file (as IOS, changed meaning,
     * ignored and why, unsupported, error), whether or not the file is valid.
     */
    public static MigrationReport migrationReport(Path file, Grammar grammar) throws IOException {
        String text = ConfigFiles.read(file);
        Outcome o = run(file.toString(), text, file.toAbsolutePath().getParent(), file, grammar);
        return MigrationReport.of(file.toString(), text, o.ctx.verdicts, o.errors, o.warnings);
    }

    /** A parse and its validation: errors and warnings in line order, both always complete. */
    private record Outcome(MclbConfig parsed, ParseContext ctx, List<ConfigError> errors, List<ConfigError> warnings) {
    }

    private static Outcome run(String fileName, String text, Path baseDir, Path source, Grammar grammar) {
        ParseContext ctx = new ParseContext(fileName, grammar);
        GlobalParser g = new GlobalParser(ctx, baseDir);
        g.parse(Tokenizer.tree(text));
        List<ConfigError> warnings = new ArrayList<>(ctx.warnings);
        // the lines ignored while parsing are visible to the extensions' rules (an IOS line a service forbids)
        MclbConfig parsed = new MclbConfig(g.global(), g.farms, g.vservers, g.extensions, ctx.warnings, source);
        List<ConfigError> errors = new ArrayList<>(ctx.errors);
        ConfigSyntax.ErrorSink engine = new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef at, String message) {
                errors.add(ConfigError.error(at, message));
            }

            @Override
            public void warning(SourceRef at, String message) {
                warnings.add(ConfigError.warning(at, message));
            }
        };
        if (parsed.vservers().isEmpty() && parsed.farms().isEmpty() && parsed.globalExtensions().isEmpty()
                && ctx.errors.isEmpty()) {
            // a wrong file or an unsaved editor buffer: legal, but the operator should hear about it
            warnings.add(ConfigError.warning(new SourceRef(fileName, 0),
                    "empty configuration: no server farm, no virtual server; mclb would serve nothing"));
        }
        boolean engineFailed = ConfigValidator.validateEngine(parsed, ctx.index(), engine);
        // a module's rule about a block whose own lines were refused would only repeat that error
        ConfigSyntax.ErrorSink modules = new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef at, String message) {
                if (!ctx.inBrokenBlock(at)) {
                    errors.add(ConfigError.error(inFile(at), message));
                }
            }

            @Override
            public void warning(SourceRef at, String message) {
                warnings.add(ConfigError.warning(inFile(at), message));
            }

            // a rule about the file as a whole names no line, but it does name the file
            private SourceRef inFile(SourceRef at) {
                return at == SourceRef.NONE ? new SourceRef(fileName, 0) : at;
            }
        };
        for (ConfigSyntax x : grammar.syntaxes()) {
            try {
                x.validate(parsed, modules);
            } catch (RuntimeException e) {
                if (!engineFailed && ctx.errors.isEmpty()) {
                    throw e; // a sound configuration must never break a module's rules: a bug to see
                }
                // rules may assume soundness; the errors already found say what to fix first
            }
        }
        for (ConfigError e : errors) {
            if (!e.warning() && ctx.verdicts.get(e.line()) == null && e.file().equals(fileName)) {
                ctx.verdicts.put(e.line(), new LineVerdict(LineVerdict.Kind.ERROR, e.message()));
            }
        }
        errors.sort(LINE_ORDER);
        warnings.sort(LINE_ORDER);
        return new Outcome(parsed, ctx, errors, warnings);
    }
}
