package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code mclb stop [--no-handover]}: asks the running mclb to stop in order, as SIGTERM does, and
 * waits until its admin listener is gone. An active HA group hands over to its standby at once
 * (resign) unless {@code --no-handover} (or the file's {@code mclb failover stop no-handover}): then
 * the standby stays standby, as the warm-standby seed describes for an orderly stop.
 */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stop the running mclb in order; an active HA group hands over to its standby at once "
                + "unless --no-handover.")
public final class StopCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Mixin
    AdminTarget target;

    @Option(names = "--no-handover", description = "stop without handing the active role over: the standby stays standby")
    boolean noHandover;

    @Override
    public Integer call() throws Exception {
        AdminClient admin = target.client();
        AdminClient.Reply r = admin.post("/api/v1/stop" + (noHandover ? "?handover=false" : ""));
        if (r.statusCode() != 200) {
            System.err.print(r.statusCode() == 401 || r.statusCode() == 403 ? r.body()
                    : FailoverCommand.message(r.body()) + "\n");
            return 1;
        }
        System.out.println(FailoverCommand.message(r.body()));
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            try {
                admin.get("/metrics");
            } catch (IOException gone) {
                System.out.println("stopped");
                return 0;
            }
            Thread.sleep(100);
        }
        System.err.println("mclb still answers at " + target.baseUrl() + " after " + WAIT.toSeconds() + " s");
        return 1;
    }
}
