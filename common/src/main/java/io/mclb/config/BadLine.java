package io.mclb.config;

/**
 * Thrown for a line that is recognised but cannot be accepted (by the engine's block parsers, by
 * {@link Args}, or by a module's {@link io.mclb.service.ConfigSyntax}); the parser turns it into one
 * {@link ConfigError} at the line and carries on with the next, so a file reports every error at
 * once. The message names the offending value and what is allowed, and never holds a secret.
 */
public final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    public BadLine(String message) {
        super(message, null, false, false);
    }
}
