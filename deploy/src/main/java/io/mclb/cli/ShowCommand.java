package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code mclb show reals|vservers|serverfarms|sticky [TABLE]|probe [name NAME] [detail]|stats|running-config [--json]}. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Show the running balancer: reals, vservers, serverfarms, sticky [client-ip|gtp imsi|radius framed-ip|...], probe [name NAME] [detail], stats, failover, running-config.")
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

    /** {@code show probe [name NAME] [detail]}, as on IOS. */
    private void probeQualifiers(StringBuilder path) {
        for (int i = 0; i < qualifiers.size(); i++) {
            String q = qualifiers.get(i);
            if (q.equals("name") && i + 1 < qualifiers.size()) {
                path.append("&name=").append(URLEncoder.encode(qualifiers.get(++i), StandardCharsets.UTF_8));
            } else if (q.equals("detail")) {
                path.append("&detail=1");
            } else {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "show probe " + q + ": allowed 'show probe [name NAME] [detail]'");
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        StringBuilder path = new StringBuilder("/api/v1/").append(what).append("?format=").append(json ? "json" : "text");
        if (what.equals("probe")) {
            probeQualifiers(path);
        } else if (!qualifiers.isEmpty()) {
            path.append("&table=").append(URLEncoder.encode(String.join("-", qualifiers), StandardCharsets.UTF_8));
        }
        if (limit != null) {
            path.append("&limit=").append(limit);
        }
        HttpResponse<String> r = new AdminClient(target.baseUrl()).get(path.toString());
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
