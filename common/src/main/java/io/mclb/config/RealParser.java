package io.mclb.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code real IP [PORT]} block inside a server farm. Starts from the IOS SLB defaults of
 * {@link RealConfig#defaults}; each line overrides one setting and each {@code no} form restores it.
 */
final class RealParser {

    private final ParseContext ctx;
    private InetAddress address;
    private int port;
    private int weight = RealConfig.DEFAULT_WEIGHT;
    private long maxConns = RealConfig.DEFAULT_MAXCONNS;
    private long maxClients = RealConfig.DEFAULT_MAXCLIENTS;
    private int rate;
    private int reassign = RealConfig.DEFAULT_REASSIGN;
    private int numconns = RealConfig.DEFAULT_FAILDETECT_NUMCONNS;
    private int numclients = RealConfig.DEFAULT_FAILDETECT_NUMCONNS;
    private boolean inband = true;
    private int retry = RealConfig.DEFAULT_RETRY_SECONDS;
    private boolean inService;
    private final List<ExtensionLine> extensions = new ArrayList<>();

    private RealParser(ParseContext ctx) {
        this.ctx = ctx;
    }

    /** Parses a {@code real} line and its sub-lines; null when the header itself is bad. */
    static RealConfig parse(ParseContext ctx, Tokenizer.Node n, String farm) {
        RealParser p = new RealParser(ctx);
        List<String> t = n.line().tokens();
        try {
            p.address = Args.address(t, 1, "real");
            p.port = t.size() > 2 ? Args.integer(t, 2, "real " + t.get(1) + " port", 1, 65535) : 0;
            Args.end(t, 2, "real " + t.get(1));
        } catch (BadLine e) {
            ctx.error(n.line(), e.getMessage());
            return null;
        }
        String name = " in real " + String.join(" ", t.subList(1, t.size())) + " of serverfarm " + farm;
        for (Tokenizer.Node c : n.children()) {
            try {
                if (!p.line(c.line())) {
                    ExtensionLine x = ctx.offer(ConfigBlock.REAL, c.line(), c.descendants(), name);
                    if (x != null) {
                        p.extensions.add(x);
                    }
                    continue;
                }
            } catch (BadLine e) {
                ctx.error(c.line(), e.getMessage());
            }
            ctx.noChildren(c);
        }
        return new RealConfig(p.address, p.port, p.weight, p.maxConns, p.maxClients, p.rate, p.reassign, p.numconns,
                p.numclients, p.inband, p.retry, p.inService, p.extensions, ctx.at(n.line()));
    }

    /** True if the core grammar knows the line (it may still be bad: then BadLine). */
    private boolean line(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        boolean no = t.get(0).equalsIgnoreCase("no");
        List<String> a = no ? t.subList(1, t.size()) : t;
        if (a.isEmpty()) {
            return false;
        }
        String k = a.get(0).toLowerCase(java.util.Locale.ROOT);
        if (no) {
            return reset(k, a);
        }
        switch (k) {
            case "weight" -> {
                weight = Args.integer(a, 1, "weight", 0, 65535);
                Args.end(a, 1, "weight");
            }
            case "maxconns" -> {
                maxConns = Args.number(a, 1, "maxconns", 1, 4_294_967_295L);
                if (a.size() > 2 && a.get(2).equalsIgnoreCase("sticky-override")) {
                    ctx.warnings.add(ConfigError.warning(ctx.at(l),
                            "ignored 'sticky-override': mclb applies maxconns to sticky clients too"));
                    Args.end(a, 2, "maxconns " + a.get(1));
                } else {
                    Args.end(a, 1, "maxconns " + a.get(1));
                }
            }
            case "maxclients" -> {
                maxClients = Args.number(a, 1, "maxclients", 1, 4_294_967_295L);
                Args.end(a, 1, "maxclients");
            }
            case "rate" -> {
                rate = (int) Math.min(Integer.MAX_VALUE, Args.number(a, 1, "rate", 1, 4_294_967_295L));
                Args.end(a, 1, "rate");
            }
            case "reassign" -> {
                reassign = Args.integer(a, 1, "reassign", 1, 4);
                Args.end(a, 1, "reassign");
            }
            case "retry" -> {
                retry = Args.integer(a, 1, "retry", 1, 3600);
                Args.end(a, 1, "retry");
            }
            case "inservice" -> {
                inService = true;
                Args.end(a, 0, "inservice");
            }
            case "faildetect" -> faildetect(a);
            default -> {
                return false;
            }
        }
        return true;
    }

    private void faildetect(List<String> a) throws BadLine {
        if (a.size() > 1 && a.get(1).equalsIgnoreCase("inband")) {
            inband = true;
            Args.end(a, 1, "faildetect inband");
            return;
        }
        if (a.size() < 2 || !a.get(1).equalsIgnoreCase("numconns")) {
            throw new BadLine("faildetect" + (a.size() > 1 ? " " + a.get(1) : "")
                    + ": allowed 'faildetect numconns N [numclients M]' or 'faildetect inband'");
        }
        int n = Args.integer(a, 2, "faildetect numconns", 1, 255);
        int m = Math.min(n, RealConfig.DEFAULT_FAILDETECT_NUMCONNS);
        if (a.size() > 3) {
            if (!a.get(3).equalsIgnoreCase("numclients")) {
                throw new BadLine("faildetect numconns " + n + ": unexpected '" + a.get(3) + "', allowed numclients M");
            }
            m = Args.integer(a, 4, "faildetect numconns " + n + " numclients", 1, n);
            Args.end(a, 4, "faildetect numconns " + n + " numclients " + m);
        }
        numconns = n;
        numclients = m;
    }

    private boolean reset(String k, List<String> a) {
        switch (k) {
            case "weight" -> weight = RealConfig.DEFAULT_WEIGHT;
            case "maxconns" -> maxConns = RealConfig.DEFAULT_MAXCONNS;
            case "maxclients" -> maxClients = RealConfig.DEFAULT_MAXCLIENTS;
            case "rate" -> rate = 0;
            case "reassign" -> reassign = RealConfig.DEFAULT_REASSIGN;
            case "retry" -> retry = RealConfig.DEFAULT_RETRY_SECONDS;
            case "inservice" -> inService = false;
            case "faildetect" -> {
                if (a.size() > 1 && a.get(1).equalsIgnoreCase("inband")) {
                    inband = false;
                } else {
                    numconns = RealConfig.DEFAULT_FAILDETECT_NUMCONNS;
                    numclients = RealConfig.DEFAULT_FAILDETECT_NUMCONNS;
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
