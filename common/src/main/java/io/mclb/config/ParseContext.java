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

    private static final Set<String> IGNORED_GLOBAL = Set.of("entries", "maxbuffers", "natpool", "static", "timers");
    private static final Set<String> IGNORED_VSERVER = Set.of("advertise", "delay", "synguard", "access", "replicate");
    private static final Set<String> IGNORED_FARM = Set.of("nat", "access");

    final String file;
    final List<ConfigSyntax> extensions;
    final Map<String, ProbeFactory> probeTypes;
    final List<ConfigError> errors;
    final List<ConfigError> warnings;
    private final Grammar grammar;
    private final Map<String, SourceRef> where = new HashMap<>();
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
                return new ExtensionLine(x.owner(), c.stored() != null ? c.stored() : l.tokens(), List.of(), at(l),
                        c.record());
            }
        }
        if (ignored(block, l)) {
            warnings.add(ConfigError.warning(at(l), "ignored '" + redacted(l) + "': not used by mclb"));
            return null;
        }
        error(l, "unknown command '" + redacted(l) + "'" + where);
        return null;
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
                return new ExtensionLine(x.owner(), c.stored() != null ? c.stored() : n.line().tokens(),
                        c.storedChildren() != null ? c.storedChildren() : kids, at(n.line()), c.record());
            }
        }
        // children of an unknown or ignored stanza are not reported one by one: the header says it all
        return offer(ConfigBlock.GLOBAL, n.line(), List.of(), "");
    }

    private static boolean ignored(ConfigBlock block, Tokenizer.Line l) {
        int i = l.is(0, "no") ? 1 : 0;
        if (i >= l.tokens().size()) {
            return false;
        }
        String k = l.tokens().get(i).toLowerCase(Locale.ROOT);
        return switch (block) {
            case GLOBAL -> l.is(i, "ip") && l.is(i + 1, "slb") && i + 2 < l.tokens().size()
                    && IGNORED_GLOBAL.contains(l.tokens().get(i + 2).toLowerCase(Locale.ROOT));
            case VSERVER -> IGNORED_VSERVER.contains(k);
            case SERVERFARM -> IGNORED_FARM.contains(k);
            case REAL -> false;
        };
    }

    /**
     * The line for a message, with the value after {@code password}, {@code secret} or {@code key}
     * (and its IOS {@code 0|7} type word) masked: unknown lines are echoed, secrets never are.
     */
    static String redacted(Tokenizer.Line l) {
        List<String> out = new ArrayList<>(l.tokens());
        for (int i = 0; i < out.size() - 1; i++) {
            String k = out.get(i).toLowerCase(Locale.ROOT);
            if (k.equals("password") || k.equals("secret") || k.equals("key")) {
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
