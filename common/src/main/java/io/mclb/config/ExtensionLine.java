package io.mclb.config;

import java.util.List;

/**
 * A line (or a whole top-level stanza) claimed by a protocol or HA module through
 * {@link ConfigSyntax}. The engine keeps it verbatim-normalised (tokens joined by one space) so
 * that {@code show running-config} writes it back, and hands it to its owner on apply.
 *
 * @param owner    the {@link ConfigSyntax#owner()} that claimed it
 * @param tokens   the line's tokens; for a stanza, the header line
 * @param children for a top-level stanza, its indented sub-lines (each already tokenised); else empty
 */
public record ExtensionLine(String owner, List<String> tokens, List<List<String>> children, SourceRef source) {
    public ExtensionLine {
        tokens = List.copyOf(tokens);
        children = children.stream().map(List::copyOf).toList();
    }

    public String text() {
        return String.join(" ", tokens);
    }

    /** Equality for reload diffs ignores where the line sat in the file. */
    public boolean sameAs(ExtensionLine o) {
        return owner.equals(o.owner) && tokens.equals(o.tokens) && children.equals(o.children);
    }
}
