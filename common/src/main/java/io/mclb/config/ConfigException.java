package io.mclb.config;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration that cannot be used; carries every error found, in line order. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors) {
        super(errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public List<ConfigError> errors() {
        return errors;
    }
}
