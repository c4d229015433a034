package io.mclb.cli;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code mclb check -c FILE}: validate without starting; exit 0, or list every error by line and exit 1. */
@Command(name = "check", mixinStandardHelpOptions = true, description = "Validate a configuration file without starting.")
public final class CheckCommand implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, required = true, description = "configuration file")
    Path config;

    @Override
    public Integer call() throws Exception {
        try {
            MclbConfig c = ConfigParser.parse(config, Modules.load().grammar());
            for (ConfigError w : c.warnings()) {
                System.err.println(w);
            }
            System.out.println(config + ": OK (" + c.farms().size() + " server farm(s), " + c.vservers().size()
                    + " virtual server(s)" + (c.warnings().isEmpty() ? "" : ", " + c.warnings().size() + " warning(s)")
                    + ")");
            return 0;
        } catch (ConfigException e) {
            for (ConfigError err : e.errors()) {
                System.err.println(err);
            }
            System.err.println(config + ": " + e.errors().size() + " error(s)");
            return 1;
        } catch (NoSuchFileException e) {
            System.err.println(config + ": no such file");
            return 1;
        }
    }
}
