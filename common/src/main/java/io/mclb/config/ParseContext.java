package io.mclb.config;

import io.mclb.service.ConfigSyntax;
import io.mclb.service.ProbeFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the block parsers share while reading one file: the extensions to offer unknown lines to,
 * the errors and warnings found so far, and an index of where settings were written so that the
 * validator can point at the offending line rather than at the block header.
 *
 * <p>The index also remembers settings whose line was rejected ("broken"), so that validation does
 * not pile a second, derived error on top (a bad {@code virtual} line is not also "no virtual line").
 */
final class ParseContext {

    /** The engine's own first words per block, for the nearest-keyword hint. */
    private static final Map<ConfigBlock, List<String>> CORE_KEYWORDS = Map.of(
            ConfigBlock.GLOBAL, List.of("ip", "mclb"),
            ConfigBlock.SERVERFARM, List.of("predictor", "failaction", "real", "probe"),
            ConfigBlock.REAL, List.of("weight", "maxconns", "maxclients", "rate", "reassign", "faildetect", "retry",
                    "inservice"),
            ConfigBlock.VSERVER, List.of("virtual", "serverfarm", "sticky", "idle", "client", "inservice"));

    final String file;
    final List<ConfigSyntax> extensions;
    final Map<String, ProbeFactory> probeTypes;
    final List<ConfigError> errors;
    final List<ConfigError> warnings;
    private final Grammar grammar;
    private final Map<String, SourceRef> where = new HashMap<>();
    /** How each line was taken, for {@code mclb check --migrate}; lines not recorded were taken as written. */
    final java.util.TreeMap<Integer, LineVerdict> verdicts = new java.util.TreeMap<>();
    /** Line ranges (first, last) of blocks with an error in their lines: modules' rules there would only repeat it. */
    final List<int[]> brokenBlocks = new ArrayList<>();
    private final Set<String> broken = new HashSet<>();

    ParseContext(String file, Grammar grammar) {
        this(file, grammar, new ArrayList<>(), new ArrayList<>());
    }

    private ParseContext(String file, Grammar grammar, List<ConfigError> errors, List<ConfigError> warnings) {
        this.file = file;
        this.grammar = grammar;
        this.extensions = grammar.syntaxes();
        this.probeTypes = grammar.probeTypes();
        this.errors = errors;
        this.warnings = warnings;
    }

    /**
     * A context that reports into the same error lists but keeps its own index: used to check the
     * body of a block whose name is a duplicate without letting it overwrite the first one's lines.
     */
    ParseContext scratch() {
        return new ParseContext(file, grammar, errors, warnings);
    }

    SourceRef at(Tokenizer.Line l) {
        return new SourceRef(file, l.number());
    }

    ConfigLine line(Tokenizer.Line l) {
        return new ConfigLine(l.tokens(), at(l));
    }

    void error(Tokenizer.Line l, String message) {
        errors.add(ConfigError.error(at(l), message));
        verdicts.put(l.number(), new LineVerdict(LineVerdict.Kind.ERROR, message));
    }

    /** Records how a line was taken (the default, as written, needs no call). */
    void verdict(Tokenizer.Line l, LineVerdict.Kind kind, String note) {
        verdicts.putIfAbsent(l.number(), new LineVerdict(kind, note));
    }

    /** Runs {@code body} over block {@code n}; a block whose lines had errors is remembered as broken. */
    void block(Tokenizer.Node n, Runnable body) {
        int before = errors.size();
        body.run();
        if (errors.size() > before) {
            List<Tokenizer.Line> all = n.descendants();
            int last = all.isEmpty() ? n.line().number() : all.get(all.size() - 1).number();
            brokenBlocks.add(new int[] {n.line().number(), last});
        }
    }

    /** Whether {@code at} lies in a block with an error in its lines. */
    boolean inBrokenBlock(SourceRef at) {
        for (int[] b : brokenBlocks) {
            if (at.file().equals(file) && at.line() >= b[0] && at.line() <= b[1]) {
                return true;
            }
        }
        return false;
    }

    /** Remembers the line a setting came from, e.g. {@code ("vserver A", "serverfarm")}. */
    void mark(String object, String setting, Tokenizer.Line l) {
        where.put(object + "\u0000" + setting, at(l));
    }

    void markBroken(String object, String setting) {
        broken.add(object + "\u0000" + setting);
    }

    SourceIndex index() {
        return new SourceIndex(Map.copyOf(where), Set.copyOf(broken));
    }

    /**
     * Offers a line the core grammar does not know to each extension, then to the list of IOS lines
     * mclb deliberately ignores; anything left is an error. Returns the claimed line, or null.
     *
     * @param where how the error message names the block, e.g. "in serverfarm ECHO"
     */
    ExtensionLine offer(ConfigBlock block, Tokenizer.Line l, List<Tokenizer.Line> children, String where) {
        for (ConfigSyntax x : extensions) {
            ConfigSyntax.Claim c;
            try {
                c = x.claimLine(block, line(l));
            } catch (BadLine e) {
                error(l, e.getMessage());
                return null;
            }
            if (c.claimed()) {
                for (Tokenizer.Line child : children) {
                    error(child, "unexpected indented line '" + child.text() + "': '" + l.text() + "' opens no block");
                }
                if (c.changedMeaning() != null) {
                    verdict(l, LineVerdict.Kind.CHANGED, c.changedMeaning());
                }
                return new ExtensionLine(x.owner(), c.stored() != null ? c.stored() : l.tokens(), List.of(), at(l),
                        c.record());
            }
        }
        IosCatalog.Disposition known = IosCatalog.of(block, l.tokens());
        if (known != null && known.ignored()) {
            warnings.add(ConfigError.warning(at(l), "ignored '" + redacted(l) + "': not used by mclb ("
                    + known.reason() + ")"));
            verdicts.put(l.number(), new LineVerdict(LineVerdict.Kind.IGNORED, known.reason()));
            return null;
        }
        if (known != null) {
            error(l, "'" + redacted(l) + "': an IOS SLB command this build does not support (" + known.reason() + ")");
            verdicts.put(l.number(), new LineVerdict(LineVerdict.Kind.UNSUPPORTED, known.reason()));
            return null;
        }
        error(l, "unknown command '" + redacted(l) + "'" + where + hint(block, l));
        return null;
    }

    /** "(did you mean 'weight'?)" for a mistyped first word, else empty. */
    private String hint(ConfigBlock block, Tokenizer.Line l) {
        int i = l.is(0, "no") && l.tokens().size() > 1 ? 1 : 0;
        List<String> known = new ArrayList<>(CORE_KEYWORDS.get(block));
        for (ConfigSyntax x : extensions) {
            known.addAll(x.keywords(block));
        }
        String near = Keywords.nearest(l.tokens().get(i), known);
        return near == null ? "" : " (did you mean '" + near + "'?)";
    }

    /** Offers an unknown top-level line with its sub-lines as a stanza first, then as a single line. */
    ExtensionLine offerStanza(Tokenizer.Node n) {
        List<Tokenizer.Line> lines = n.descendants();
        List<List<String>> kids = lines.stream().map(Tokenizer.Line::tokens).toList();
        List<ConfigLine> children = lines.stream().map(this::line).toList();
        for (ConfigSyntax x : extensions) {
            ConfigSyntax.Claim c;
            try {
                c = x.claimStanza(line(n.line()), children);
            } catch (BadLine e) {
                error(n.line(), e.getMessage());
                return null;
            }
            if (c.claimed()) {
                if (c.changedMeaning() != null) {
                    verdict(n.line(), LineVerdict.Kind.CHANGED, c.changedMeaning());
                }
                return new ExtensionLine(x.owner(), c.stored() != null ? c.stored() : n.line().tokens(),
                        c.storedChildren() != null ? c.storedChildren() : kids, at(n.line()), c.record());
            }
        }
        // children of an unknown or ignored stanza are not reported one by one: the header says it all
        return offer(ConfigBlock.GLOBAL, n.line(), List.of(), "");
    }

    /**
     * The line for a message, with the value after {@code password}, {@code secret}, {@code key} or {@code key-string}
     * (and its IOS {@code 0|7} type word) masked: unknown lines are echoed, secrets never are.
     */
    static String redacted(Tokenizer.Line l) {
        List<String> out = new ArrayList<>(l.tokens());
        for (int i = 0; i < out.size() - 1; i++) {
            String k = out.get(i).toLowerCase(Locale.ROOT);
            if (k.equals("password") || k.equals("secret") || k.equals("key") || k.equals("key-string")) {
                boolean typed = (out.get(i + 1).equals("0") || out.get(i + 1).equals("7")) && i + 2 < out.size();
                int v = typed ? i + 2 : i + 1;
                out.set(v, "***");
                i = v;
            }
        }
        return String.join(" ", out);
    }

    /** Reports sub-lines under a line that opens no block. */
    void noChildren(Tokenizer.Node n) {
        for (Tokenizer.Line child : n.descendants()) {
            error(child, "unexpected indented line '" + child.text() + "': '" + n.line().text() + "' opens no block");
        }
    }
}
