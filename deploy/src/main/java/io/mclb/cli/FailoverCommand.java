package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code mclb failover active|reset|standby [--group NAME]} (LocalDirector): {@code active} forces this
 * node active in every HA group (or the named one) above any priority; {@code reset} clears the forced
 * and given-up states and a Failed node once its cause is gone (else it says what remains);
 * {@code standby} is LocalDirector's {@code no failover active} (also spelt {@code no-active}, and
 * {@code mclb no failover active}): the active node resigns to its standby and does not preempt until
 * reset. {@code mclb show failover} shows the result.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Force this node active (failover active), give the active role up (failover standby, "
                + "i.e. 'no failover active'), or clear forced and Failed states (failover reset).")
public final class FailoverCommand implements Callable<Integer> {
    private static final java.util.regex.Pattern MESSAGE =
            java.util.regex.Pattern.compile("\"message\":\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Mixin
    AdminTarget target;

    @Parameters(index = "0", description = "active, reset, or standby (no-active)")
    String action;

    @Option(names = "--group", description = "only this HA group (standby G name NAME)")
    String group;

    @Override
    public Integer call() throws Exception {
        String a = action.equals("no-active") ? "standby" : action;
        if (!a.equals("active") && !a.equals("reset") && !a.equals("standby")) {
            System.err.println("failover " + action + ": allowed 'failover active', 'failover reset' or "
                    + "'failover standby' (LocalDirector's 'no failover active'; also 'failover no-active')");
            return 2;
        }
        return post(target, a, group);
    }

    /** POSTs {@code failover/ACTION} and prints the node's answer; 0 when it did it. */
    static int post(AdminTarget target, String action, String group) throws Exception {
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
        (r.statusCode() == 200 ? System.out : System.err).println(message(r.body()));
        return r.statusCode() == 200 ? 0 : 1;
    }

    /** The {@code message} of an action's JSON answer, unescaped; the body when there is none. */
    static String message(String body) {
        java.util.regex.Matcher m = MESSAGE.matcher(body);
        return m.find() ? m.group(1).replace("\\\"", "\"").replace("\\\\", "\\") : body;
    }
}
