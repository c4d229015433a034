package io.mclb.config;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration that cannot be used; carries every error found, in line order. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<ConfigError> errors;
    private final transient List<ConfigError> warnings;

    public ConfigException(List<ConfigError> errors) {
        this(errors, List.of());
    }

    public ConfigException(List<ConfigError> errors, List<ConfigError> warnings) {
        super(errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
        this.warnings = List.copyOf(warnings);
    }

    public List<ConfigError> errors() {
        return errors;
    }

    /** The warnings of the same file: they are not hidden behind its errors. */
    public List<ConfigError> warnings() {
        return warnings;
    }
}
