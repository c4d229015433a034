package io.mclb;

import io.mclb.cli.CheckCommand;
import io.mclb.cli.DemoCommand;
import io.mclb.cli.ReloadCommand;
import io.mclb.cli.RunCommand;
import io.mclb.cli.ShowCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** The {@code mclb} command line. Without a subcommand it runs the demo. */
@Command(name = "mclb", mixinStandardHelpOptions = true, versionProvider = io.mclb.cli.VersionProvider.class,
        description = "mclb, the mobile-core load balancer: GTP, RADIUS and UDP signalling in front of GGSN/PGW and AAA farms.",
        subcommands = {RunCommand.class, CheckCommand.class, ShowCommand.class, ReloadCommand.class,
                io.mclb.cli.FailoverCommand.class, io.mclb.cli.NoCommand.class, io.mclb.cli.StopCommand.class,
                io.mclb.cli.DfpAgentCommand.class,
                DemoCommand.class, io.mclb.cli.SimCommand.class, io.mclb.cli.LoadgenCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {

    @Override
    public Integer call() throws Exception {
        return new DemoCommand().call();
    }

    public static void main(String[] args) {
        quietLeakDetector();
        CommandLine cli = new CommandLine(new Main());
        // operators get one line naming the problem, not a stack trace (the log has the detail)
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            StringBuilder msg = new StringBuilder("mclb: ").append(e.getMessage() == null ? e.toString() : e.getMessage());
            for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
                if (c.getMessage() != null && !msg.toString().contains(c.getMessage())) {
                    msg.append(": ").append(c.getMessage());
                }
            }
            cmd.getErr().println(msg);
            if (Boolean.getBoolean("mclb.debug")) {
                org.slf4j.LoggerFactory.getLogger(Main.class).error("{}", msg, e);
            }
            return 2;
        });
        System.exit(cli.execute(args));
    }

    /**
     * Netty's leak detector is off unless {@code -Dio.netty.leakDetection.level} asks for it: at its
     * default (simple) it tracks 1 receive buffer in 128 and every slice cut from a tracked one, each
     * with a captured stack trace, which was 57 of the 62 bytes the epoll relay still allocated per
     * request (perf/README.md, "Issue 15"). The tests keep it on.
     */
    static void quietLeakDetector() {
        if (System.getProperty("io.netty.leakDetection.level") == null && System.getProperty("io.netty.leakDetectionLevel") == null) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
    }
}
