package io.mclb.config;

/**
 * Thrown for a line that is recognised but cannot be accepted (by the engine's block parsers, by
 * {@link Args}, or by a module's {@link io.mclb.service.ConfigSyntax}); the parser turns it into one
 * {@link ConfigError} at the line and carries on with the next, so a file reports every error at
 * once. The message names the offending value and what is allowed, and never holds a secret.
 */
public final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    /** The sub-line it is about, when it is not the line being parsed (a stanza's own line), or null. */
    private final transient SourceRef at;

    public BadLine(String message) {
        this(message, null);
    }

    private BadLine(String message, SourceRef at) {
        super(message, null, false, false);
        this.at = at;
    }

    /** The same error, reported at {@code line} (a sub-line of the stanza being parsed). */
    public BadLine at(SourceRef line) {
        return new BadLine(getMessage(), line);
    }

    /** Where to report it, or null: the line being parsed. */
    public SourceRef source() {
        return at;
    }
}
