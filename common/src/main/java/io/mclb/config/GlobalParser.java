package io.mclb.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Top level of a configuration file: the {@code mclb ...} lines, {@code ip slb serverfarm} and
 * {@code ip slb vserver} blocks, and stanzas offered to extensions. Duplicate block names are
 * reported at the second header; that block's body is still checked, then dropped.
 */
final class GlobalParser {

    private final ParseContext ctx;
    private final Path baseDir;
    private InetSocketAddress admin = GlobalConfig.DEFAULT_ADMIN;
    private Path dataDir;
    private long stickyEntries = GlobalConfig.DEFAULT_STICKY_ENTRIES;
    private int eventLoops;
    private io.mclb.net.TransportKind transport = io.mclb.net.TransportKind.AUTO;
    final Map<String, ServerFarmConfig> farms = new LinkedHashMap<>();
    final Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
    final List<ExtensionLine> extensions = new ArrayList<>();
    private final Map<String, SourceRef> adminLines = new java.util.HashMap<>();

    GlobalParser(ParseContext ctx, Path baseDir) {
        this.ctx = ctx;
        this.baseDir = baseDir;
        this.dataDir = resolve(GlobalConfig.defaults().dataDir());
    }

    GlobalConfig global() {
        return new GlobalConfig(admin, dataDir, ForwardingMode.PROXY, stickyEntries, eventLoops, transport);
    }

    void parse(List<Tokenizer.Node> roots) {
        Map<String, SourceRef> probes = new LinkedHashMap<>();
        java.util.Set<String> brokenProbes = new java.util.HashSet<>();
        for (Tokenizer.Node n : roots) {
            Tokenizer.Line l = n.line();
            if (l.is(0, "ip") && l.is(1, "slb") && (l.is(2, "serverfarm") || l.is(2, "vserver"))) {
                ctx.block(n, () -> block(n, l.tokens().get(2).toLowerCase(Locale.ROOT)));
                continue;
            }
            if (ProbeParser.isProbe(l)) {
                ExtensionLine x = ProbeParser.parse(ctx, n);
                if (x == null) {
                    if (l.tokens().size() > 3) {
                        brokenProbes.add(l.tokens().get(3));
                    }
                } else {
                    ProbeConfig p = (ProbeConfig) x.record();
                    SourceRef first = probes.putIfAbsent(p.name(), p.source());
                    if (first != null) {
                        ctx.error(l, "ip slb probe " + p.name() + ": duplicate name, first defined at line "
                                + first.line());
                    } else {
                        extensions.add(x);
                    }
                }
                continue;
            }
            try {
                if (!l.is(0, "mclb") || !mclb(l)) {
                    ctx.block(n, () -> {
                        ExtensionLine x = ctx.offerStanza(n);
                        if (x != null) {
                            extensions.add(x);
                        }
                    });
                    continue;
                }
            } catch (BadLine e) {
                ctx.error(l, e.getMessage());
            }
            ctx.noChildren(n);
        }
        dropUndefinedProbeRefs(probes.keySet(), brokenProbes);
    }

    /**
     * A farm's {@code probe NAME} without an {@code ip slb probe NAME} anywhere in the file does
     * not apply: it is dropped with a warning (an IOS probe of a type this build lacks is an error
     * at its own stanza, and references to a stanza with an error are dropped silently). A
     * route-map farm keeps it: it takes no farm lines at all, which the route-map rules report.
     */
    private void dropUndefinedProbeRefs(java.util.Set<String> defined, java.util.Set<String> broken) {
        for (Map.Entry<String, ServerFarmConfig> e : farms.entrySet()) {
            ServerFarmConfig f = e.getValue();
            if (f.predictor() == PredictorKind.ROUTE_MAP) {
                continue;
            }
            List<ExtensionLine> kept = new ArrayList<>();
            for (ExtensionLine x : f.extensions()) {
                if (x.record() instanceof ProbeRef r && !defined.contains(r.name())) {
                    if (!broken.contains(r.name())) {
                        ctx.warnings.add(ConfigError.warning(x.source(), "ignored '" + x.text() + "': not used by mclb"
                                + " (no 'ip slb probe " + r.name() + " TYPE' in this file defines it: the farm's reals"
                                + " are not probed)"));
                    }
                    continue;
                }
                kept.add(x);
            }
            if (kept.size() != f.extensions().size()) {
                e.setValue(new ServerFarmConfig(f.name(), f.predictor(), f.routeMap(), f.failActionPurge(), f.reals(),
                        kept, f.source()));
            }
        }
    }

    private void block(Tokenizer.Node n, String kind) {
        Tokenizer.Line l = n.line();
        List<String> t = l.tokens();
        if (t.size() != 4) {
            ctx.error(l, "ip slb " + kind + (t.size() < 4 ? ": missing name" : " " + t.get(3) + ": unexpected '"
                    + String.join(" ", t.subList(4, t.size())) + "', allowed one name"));
            return;
        }
        String name = t.get(3);
        boolean farm = kind.equals("serverfarm");
        Map<String, ?> seen = farm ? farms : vservers;
        Object first = seen.get(name);
        if (first != null) {
            SourceRef at = farm ? ((ServerFarmConfig) first).source() : ((VirtualServerConfig) first).source();
            ctx.error(l, kind + " " + name + ": duplicate name, first defined at line " + at.line());
            ParseContext scratch = ctx.scratch();
            if (farm) {
                FarmParser.parse(scratch, n, name);
            } else {
                VserverParser.parse(scratch, n, name);
            }
            return;
        }
        if (farm) {
            farms.put(name, FarmParser.parse(ctx, n, name));
        } else {
            vservers.put(name, VserverParser.parse(ctx, n, name));
        }
    }

    private boolean mclb(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        if (t.size() < 2) {
            return false;
        }
        switch (t.get(1).toLowerCase(Locale.ROOT)) {
            case "admin" -> {
                if (AdminLineParser.isAdminLine(t)) {
                    adminLine(l);
                    return true;
                }
                InetAddress a = Args.address(t, 2, "mclb admin");
                int port = Args.integer(t, 3, "mclb admin " + t.get(2) + " port", 1, 65535);
                Args.end(t, 3, "mclb admin " + t.get(2) + " " + port);
                admin = new InetSocketAddress(a, port);
            }
            case "data-dir" -> {
                if (t.size() < 3) {
                    throw new BadLine("mclb data-dir: missing directory");
                }
                Args.end(t, 2, "mclb data-dir " + t.get(2));
                try {
                    dataDir = resolve(Path.of(t.get(2)));
                } catch (InvalidPathException e) {
                    throw new BadLine("mclb data-dir " + t.get(2) + ": not a valid path (" + e.getReason() + ")");
                }
            }
            case "forwarding" -> {
                if (l.is(2, "transparent")) {
                    throw new BadLine("mclb forwarding transparent: not available in this build, allowed proxy");
                }
                if (!l.is(2, "proxy")) {
                    throw new BadLine("mclb forwarding" + (t.size() > 2 ? " " + t.get(2) : "")
                            + ": unknown mode, allowed proxy");
                }
                Args.end(t, 2, "mclb forwarding proxy");
            }
            case "sticky" -> {
                if (!l.is(2, "entries")) {
                    return false;
                }
                stickyEntries = Args.number(t, 3, "mclb sticky entries", 1000, 2_000_000_000L);
                Args.end(t, 3, "mclb sticky entries " + t.get(3));
            }
            case "event-loops" -> {
                eventLoops = Args.integer(t, 2, "mclb event-loops", 0, 64);
                Args.end(t, 2, "mclb event-loops " + t.get(2));
            }
            case "transport" -> {
                if (t.size() < 3) {
                    throw new BadLine("mclb transport: missing transport, allowed " + io.mclb.net.TransportKind.allowed());
                }
                transport = io.mclb.net.TransportKind.of(t.get(2));
                if (transport == null) {
                    throw new BadLine("mclb transport " + t.get(2) + ": unknown transport, allowed "
                            + io.mclb.net.TransportKind.allowed());
                }
                Args.end(t, 2, "mclb transport " + t.get(2));
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** {@code mclb admin token|tls|max-connections|timeout ...}: once each. */
    private void adminLine(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        String word = t.get(2).toLowerCase(Locale.ROOT);
        SourceRef first = adminLines.get(word);
        if (first != null) {
            throw new BadLine("mclb admin " + word + ": duplicate line, first at line " + first.line()
                    + "; allowed once");
        }
        AdminLine record = AdminLineParser.parse(t, this::resolve);
        adminLines.put(word, ctx.at(l));
        extensions.add(new ExtensionLine(AdminLine.OWNER, t, List.of(), ctx.at(l), record));
    }

    private Path resolve(Path p) {
        return baseDir == null || p.isAbsolute() ? p : baseDir.resolve(p).normalize();
    }
}
