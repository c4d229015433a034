package io.mclb.testing;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Configuration text parsed as file {@code t.cfg} with the engine's own lines (no protocol module). */
public final class EngineConfig {
    private EngineConfig() {
    }

    public static MclbConfig parse(String text) throws ConfigException {
        return ConfigParser.parse("t.cfg", text, Path.of("/tmp"), Modules.of().grammar());
    }

    /** The {@code file:line: message} errors of {@code text}, which must have some. */
    public static List<String> errors(String text) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(text));
        assertThat(e).as("expected errors for:%n%s", text).isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }
}
