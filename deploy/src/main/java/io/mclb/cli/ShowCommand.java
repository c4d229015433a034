package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code mclb show VIEW [QUALIFIERS] [--json]}: the views of README "Command line". */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Show the running balancer: reals [sfarm NAME] [detail], vservers [name NAME] [detail], serverfarms [name NAME] [detail], sticky [client IP MASK|gtp imsi [id IMSI]|radius ...|asn msid], conns [vserver NAME|client IP] [detail], gtp gsn|nsapi, replicate, dfp [weights], kal-ap [TAG], probe [name NAME] [detail], failover, stats, running-config.")
public final class ShowCommand implements Callable<Integer> {
    @Mixin
    AdminTarget target;

    @Parameters(index = "0", description = "what to show")
    String what;

    @Parameters(index = "1..*", arity = "0..*", description = "qualifiers, e.g. 'sticky gtp imsi'")
    List<String> qualifiers = List.of();

    @Option(names = "--json", description = "JSON instead of a table")
    boolean json;

    @Option(names = "--limit", description = "at most this many sticky entries (default 1000)")
    Integer limit;

    @Override
    public Integer call() throws Exception {
        StringBuilder path = new StringBuilder("/api/v1/").append(what).append("?format=").append(json ? "json" : "text");
        if (!qualifiers.isEmpty()) {
            // args: the qualifiers as typed (IOS: 'sfarm NAME', 'detail'); table: the older joined form
            path.append("&args=").append(URLEncoder.encode(String.join(" ", qualifiers), StandardCharsets.UTF_8));
            path.append("&table=").append(URLEncoder.encode(String.join("-", qualifiers), StandardCharsets.UTF_8));
        }
        if (limit != null) {
            path.append("&limit=").append(limit);
        }
        AdminClient.Reply r = target.client().get(path.toString());
        if (r.statusCode() != 200) {
            System.err.print(r.body());
            return 1;
        }
        String body = r.body();
        if (json && what.equals("running-config")) {
            System.out.println(body);
        } else {
            System.out.print(body.endsWith("\n") ? body : body + "\n");
        }
        return 0;
    }
}
