package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code mclb failover active|reset [--group NAME]} (LocalDirector): {@code active} forces this node
 * active in every HA group (or the named one) above any priority; {@code reset} clears the forced
 * state and lets the election rules apply again. {@code mclb show failover} shows the result.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Force this node active (failover active) or clear the forced state (failover reset).")
public final class FailoverCommand implements Callable<Integer> {
    @Mixin
    AdminTarget target;

    @Parameters(index = "0", description = "active or reset")
    String action;

    @Option(names = "--group", description = "only this HA group (standby G name NAME)")
    String group;

    @Override
    public Integer call() throws Exception {
        if (!action.equals("active") && !action.equals("reset")) {
            System.err.println("failover " + action + ": allowed 'failover active' or 'failover reset'");
            return 2;
        }
        String path = "/api/v1/failover/" + action
                + (group == null ? "" : "?group=" + URLEncoder.encode(group, StandardCharsets.UTF_8));
        AdminClient.Reply r = target.client().post(path);
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            System.err.print(r.body());
            return 1;
        }
        if (r.statusCode() == 404) {
            System.err.println("this mclb runs no HA group (no 'standby' lines in its configuration)");
            return 1;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"message\":\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(r.body());
        System.out.println(m.find() ? m.group(1) : r.body());
        return r.statusCode() == 200 ? 0 : 1;
    }
}
