package io.mclb.cli;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.server.MclbServer;
import io.mclb.server.StartupOverrides;
import io.mclb.service.Modules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code mclb run -c FILE [--admin ADDR:PORT] [--data-dir DIR]}: run until SIGTERM/SIGINT; SIGHUP reloads the file. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run the balancer with a configuration file.")
public final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, description = "configuration file (IOS SLB language)")
    Path config;

    @Option(names = "--admin", paramLabel = "ADDR:PORT",
            description = "admin listener, instead of the file's 'mclb admin' line")
    String admin;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "data directory (sticky tables, lock), instead of the file's 'mclb data-dir' line")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        HangupReload hangup = new HangupReload();
        Signals.onHangup(hangup::hangup);
        MclbServer server;
        try {
            server = MclbServer.start(config, Modules.load(),
                    new StartupOverrides(admin == null ? null : Addresses.parse(admin), dataDir));
        } catch (ConfigException e) {
            for (ConfigError err : e.errors()) {
                System.err.println(err);
            }
            System.err.println(config + ": " + e.errors().size() + " error(s); mclb did not start");
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "mclb-shutdown"));
        hangup.started(server);
        server.awaitStop();
        return 0;
    }
}
