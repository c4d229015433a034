package io.mclb.cli;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code mclb run -c FILE}: run the balancer until SIGTERM/SIGINT; SIGHUP reloads the file. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run the balancer with a configuration file.")
public final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Option(names = {"-c", "--config"}, required = true, description = "configuration file (IOS SLB language)")
    Path config;

    @Override
    public Integer call() throws Exception {
        MclbServer server;
        try {
            server = MclbServer.start(config, Modules.load());
        } catch (ConfigException e) {
            for (ConfigError err : e.errors()) {
                System.err.println(err);
            }
            System.err.println(config + ": " + e.errors().size() + " error(s); mclb did not start");
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "mclb-shutdown"));
        Signals.onHangup(() -> {
            var r = server.reload();
            if (r.ok()) {
                LOG.info("SIGHUP: configuration reloaded");
            } else {
                LOG.warn("SIGHUP: reload refused, running configuration kept: {}", r.errors());
            }
        });
        server.awaitStop();
        return 0;
    }
}
