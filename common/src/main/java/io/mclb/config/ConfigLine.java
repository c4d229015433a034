package io.mclb.config;

import java.util.List;

/**
 * One configuration line as a {@link io.mclb.service.ConfigSyntax} sees it: its tokens (quoted
 * strings kept whole) and where it sits in the file. Read values with {@link Args}.
 */
public record ConfigLine(List<String> tokens, SourceRef source) {
    public ConfigLine {
        tokens = List.copyOf(tokens);
    }

    /** Whether token {@code i} is the keyword {@code word} (case-insensitive). */
    public boolean is(int i, String word) {
        return Args.is(tokens, i, word);
    }

    /** Token {@code i} in lower case, or "" past the end. */
    public String word(int i) {
        return Args.word(tokens, i);
    }

    public String get(int i) {
        return tokens.get(i);
    }

    public int size() {
        return tokens.size();
    }

    public String text() {
        return String.join(" ", tokens);
    }
}
