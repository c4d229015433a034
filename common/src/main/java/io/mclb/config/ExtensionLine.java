package io.mclb.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A line (or a whole top-level stanza) claimed by a protocol or HA module through
 * {@link io.mclb.service.ConfigSyntax}, or by the engine's probe grammar. It carries the line's
 * typed record, which runtime code reads, and the stored tokens, which {@code show running-config}
 * writes back (verbatim-normalised: tokens joined by one space).
 *
 * @param owner    the {@link io.mclb.service.ConfigSyntax#owner()} that claimed it
 * @param tokens   the line's stored tokens; for a stanza, the header line
 * @param children for a top-level stanza, its indented sub-lines (each already tokenised); else empty
 * @param record   the owner's immutable value of the line
 */
public record ExtensionLine(String owner, List<String> tokens, List<List<String>> children, SourceRef source,
                            Object record) {
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

    /** The records of type {@code type} among {@code lines}, in file order. */
    public static <T> List<T> records(List<ExtensionLine> lines, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (ExtensionLine x : lines) {
            if (type.isInstance(x.record)) {
                out.add(type.cast(x.record));
            }
        }
        return out;
    }

    /** The first record of type {@code type} among {@code lines}, or null. */
    public static <T> T record(List<ExtensionLine> lines, Class<T> type) {
        for (ExtensionLine x : lines) {
            if (type.isInstance(x.record)) {
                return type.cast(x.record);
            }
        }
        return null;
    }
}
