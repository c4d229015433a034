package io.mclb.config;

/**
 * Thrown by a block parser for a line it recognises but cannot accept; the parser turns it into
 * one {@link ConfigError} and carries on with the next line, so a file reports every error at once.
 */
final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    BadLine(String message) {
        super(message, null, false, false);
    }
}
