package io.mclb.config;

/**
 * One problem in a configuration file. {@link #toString()} is the operator-facing form
 * {@code file:line: message} ({@code file: message} for the file as a whole); the message names the offending value and what is allowed.
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
        // line 0: about the file as a whole
        return file + (line > 0 ? ":" + line : "") + ": " + (warning ? "warning: " : "") + message;
    }
}
