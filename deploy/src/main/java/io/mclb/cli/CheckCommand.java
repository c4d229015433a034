package io.mclb.cli;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigFiles;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.service.Modules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mclb check -c FILE}: validate without starting; exit 0, or list every error and warning
 * by line (one pass: warnings are never hidden behind errors) and exit 1. With {@code --migrate},
 * a line-by-line report of how mclb takes the file on standard output.
 */
@Command(name = "check", mixinStandardHelpOptions = true, description = "Validate a configuration file without starting.")
public final class CheckCommand implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, required = true, description = "configuration file")
    Path config;

    @Option(names = "--migrate", description = "print every line with how mclb takes it (as IOS, changed meaning, "
            + "ignored and why, unsupported, error)")
    boolean migrate;

    @Override
    public Integer call() throws Exception {
        try {
            if (migrate) {
                var report = ConfigParser.migrationReport(config, Modules.load().grammar());
                System.out.print(report.text());
                return report.errors().isEmpty() ? 0 : 1;
            }
            MclbConfig c = ConfigParser.parse(config, Modules.load().grammar());
            for (ConfigError w : c.warnings()) {
                System.err.println(w);
            }
            if (c.farms().isEmpty() && c.vservers().isEmpty()) {
                System.err.println(config + ": warning: no server farm and no virtual server: mclb would serve nothing");
            }
            System.out.println(config + ": OK (" + c.farms().size() + " server farm(s), " + c.vservers().size()
                    + " virtual server(s)" + (c.warnings().isEmpty() ? "" : ", " + c.warnings().size() + " warning(s)")
                    + ")");
            return 0;
        } catch (ConfigException e) {
            List<ConfigError> all = new ArrayList<>(e.errors());
            all.addAll(e.warnings());
            all.sort(Comparator.comparing(ConfigError::file).thenComparingInt(ConfigError::line));
            for (ConfigError err : all) {
                System.err.println(err);
            }
            System.err.println(config + ": " + e.errors().size() + " error(s)"
                    + (e.warnings().isEmpty() ? "" : ", " + e.warnings().size() + " warning(s)"));
            return 1;
        } catch (ConfigFiles.Unreadable e) {
            System.err.println(e.getMessage());
            return 1;
        }
    }
}
