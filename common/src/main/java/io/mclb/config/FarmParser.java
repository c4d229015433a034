package io.mclb.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code ip slb serverfarm NAME} block: predictor, failaction and its {@code real} blocks. */
final class FarmParser {

    private final ParseContext ctx;
    private final String name;
    private PredictorKind predictor = PredictorKind.ROUNDROBIN;
    private String routeMap;
    private boolean purge;
    private final List<RealConfig> reals = new ArrayList<>();
    private final List<ExtensionLine> extensions = new ArrayList<>();

    private FarmParser(ParseContext ctx, String name) {
        this.ctx = ctx;
        this.name = name;
    }

    static ServerFarmConfig parse(ParseContext ctx, Tokenizer.Node n, String name) {
        FarmParser p = new FarmParser(ctx, name);
        for (Tokenizer.Node c : n.children()) {
            Tokenizer.Line l = c.line();
            if (l.is(0, "real")) {
                RealConfig r = RealParser.parse(ctx, c, name);
                if (r == null) {
                    ctx.markBroken("serverfarm " + name, "real");
                } else {
                    p.reals.add(r);
                }
                continue;
            }
            try {
                if (!p.line(l)) {
                    ExtensionLine x = ctx.offer(ConfigBlock.SERVERFARM, l, c.descendants(), " in serverfarm " + name);
                    if (x != null) {
                        p.extensions.add(x);
                    }
                    continue;
                }
            } catch (BadLine e) {
                ctx.error(l, e.getMessage());
            }
            ctx.noChildren(c);
        }
        return new ServerFarmConfig(name, p.predictor, p.routeMap, p.purge, p.reals, p.extensions, ctx.at(n.line()));
    }

    /** @return false when the line is not a core farm line (it is then offered to the extensions) */
    private boolean line(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        String k = t.get(0).toLowerCase(Locale.ROOT);
        switch (k) {
            case "predictor" -> predictor(t);
            case "probe" -> {
                String probe = Args.token(t, 1, "probe", "probe name");
                Args.end(t, 1, "probe " + probe);
                extensions.add(new ExtensionLine(ProbeParser.OWNER, t, List.of(), ctx.at(l), new ProbeRef(probe, ctx.at(l))));
            }
            case "failaction" -> {
                if (t.size() != 2 || !t.get(1).equalsIgnoreCase("purge")) {
                    return false;
                }
                purge = true;
            }
            case "no" -> {
                return reset(l);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void predictor(List<String> t) throws BadLine {
        String allowed = ", allowed roundrobin, leastconns, route-map NAME";
        if (t.size() < 2) {
            throw new BadLine("predictor: missing algorithm" + allowed);
        }
        String v = t.get(1).toLowerCase(Locale.ROOT);
        switch (v) {
            case "roundrobin", "leastconns" -> {
                Args.end(t, 1, "predictor " + t.get(1));
                predictor = v.equals("roundrobin") ? PredictorKind.ROUNDROBIN : PredictorKind.LEASTCONNS;
                routeMap = null;
            }
            case "route-map" -> {
                if (t.size() < 3) {
                    throw new BadLine("predictor route-map: missing route map name");
                }
                Args.end(t, 2, "predictor route-map " + t.get(2));
                predictor = PredictorKind.ROUTE_MAP;
                routeMap = t.get(2);
            }
            default -> throw new BadLine("predictor " + t.get(1) + ": unknown algorithm" + allowed);
        }
    }

    private boolean reset(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        if (l.is(1, "predictor")) {
            predictor = PredictorKind.ROUNDROBIN;
            routeMap = null;
        } else if (l.is(1, "failaction") && l.is(2, "purge") && t.size() == 3) {
            purge = false;
        } else if (l.is(1, "real")) {
            InetAddress a = Args.address(t, 2, "no real");
            int port = t.size() > 3 ? Args.integer(t, 3, "no real " + t.get(2) + " port", 1, 65535) : 0;
            Args.end(t, 3, "no real " + t.get(2));
            if (!reals.removeIf(r -> r.address().equals(a) && r.port() == port)) {
                throw new BadLine("no real " + String.join(" ", t.subList(2, t.size()))
                        + ": no such real in serverfarm " + name);
            }
        } else {
            return false;
        }
        return true;
    }
}
