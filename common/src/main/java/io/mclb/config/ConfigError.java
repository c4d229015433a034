package io.mclb.config;

/**
 * One problem in a configuration file. {@link #toString()} is the operator-facing form
 * {@code file:line: message}; the message names the offending value and what is allowed.
 */
public record ConfigError(String file, int line, String message, boolean warning) {

    public static ConfigError error(SourceRef at, String message) {
        return new ConfigError(at.file(), at.line(), message, false);
    }

    public static ConfigError warning(SourceRef at, String message) {
        return new ConfigError(at.file(), at.line(), message, true);
    }

    @Override
    public String toString() {
        return file + ":" + line + ": " + (warning ? "warning: " : "") + message;
    }
}
