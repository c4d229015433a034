package io.mclb.config;

/** Where a configuration object or line came from, for `file:line: message` errors. */
public record SourceRef(String file, int line) {
    public static final SourceRef NONE = new SourceRef("<built-in>", 0);

    @Override
    public String toString() {
        return file + ":" + line;
    }
}
