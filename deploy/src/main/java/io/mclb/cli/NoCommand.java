package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mclb no failover active [--group NAME]}: LocalDirector's own spelling of
 * {@code mclb failover standby} (the active node gives the active role up to its standby).
 */
@Command(name = "no", mixinStandardHelpOptions = true,
        description = "LocalDirector's 'no failover active': the same as 'mclb failover standby'.")
public final class NoCommand implements Callable<Integer> {
    @Mixin
    AdminTarget target;

    @Parameters(arity = "2", paramLabel = "failover active", description = "the words 'failover active'")
    List<String> words;

    @Option(names = "--group", description = "only this HA group (standby G name NAME)")
    String group;

    @Override
    public Integer call() throws Exception {
        if (!words.equals(List.of("failover", "active"))) {
            System.err.println("no " + String.join(" ", words) + ": allowed 'no failover active'");
            return 2;
        }
        return FailoverCommand.post(target, "standby", group);
    }
}
