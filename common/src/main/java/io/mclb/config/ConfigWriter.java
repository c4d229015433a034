package io.mclb.config;

import java.net.Inet4Address;
import java.util.List;

/**
 * Writes a configuration back in the language {@link ConfigParser} reads ({@code show running-config}):
 * global {@code mclb} lines, global extension stanzas in file order, server farms, then virtual
 * servers; one leading space per nesting level and {@code !} between blocks.
 *
 * <p>Settings at their default are omitted, except {@code inservice}, which is always explicit.
 * {@code mclb data-dir} is always written: its default depends on where the file lives, so the
 * resolved directory is stated. Extension lines are written inside the block they came from, after
 * its core settings and before {@code inservice}. Contract: {@code parse(write(c))} has the same
 * settings as {@code c}.
 */
public final class ConfigWriter {

    private ConfigWriter() {
    }

    public static String write(MclbConfig c) {
        StringBuilder b = new StringBuilder();
        global(b, c.global());
        b.append("!\n");
        for (ExtensionLine x : c.globalExtensions()) {
            line(b, 0, x.tokens());
            x.children().forEach(child -> line(b, 1, child));
            b.append("!\n");
        }
        c.farms().values().forEach(f -> farm(b, f));
        c.vservers().values().forEach(v -> vserver(b, v));
        return b.toString();
    }

    private static void global(StringBuilder b, GlobalConfig g) {
        if (!g.admin().equals(GlobalConfig.DEFAULT_ADMIN)) {
            b.append("mclb admin ").append(Args.text(g.admin().getAddress())).append(' ').append(g.admin().getPort())
                    .append('\n');
        }
        line(b, 0, List.of("mclb", "data-dir", g.dataDir().toString()));
        if (g.forwarding() != ForwardingMode.PROXY) {
            b.append("mclb forwarding ").append(g.forwarding().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
        }
        if (g.stickyEntries() != GlobalConfig.DEFAULT_STICKY_ENTRIES) {
            b.append("mclb sticky entries ").append(g.stickyEntries()).append('\n');
        }
        if (g.eventLoops() != 0) {
            b.append("mclb event-loops ").append(g.eventLoops()).append('\n');
        }
        if (g.transport() != io.mclb.net.TransportKind.AUTO) {
            b.append("mclb transport ").append(g.transport().keyword()).append('\n');
        }
    }

    private static void farm(StringBuilder b, ServerFarmConfig f) {
        line(b, 0, List.of("ip", "slb", "serverfarm", f.name()));
        if (f.predictor() == PredictorKind.ROUTE_MAP) {
            line(b, 1, List.of("predictor", "route-map", f.routeMap()));
        } else if (f.predictor() != PredictorKind.ROUNDROBIN) {
            line(b, 1, List.of("predictor", f.predictor().keyword()));
        }
        if (f.failActionPurge()) {
            line(b, 1, List.of("failaction", "purge"));
        }
        f.extensions().forEach(x -> line(b, 1, x.tokens()));
        f.reals().forEach(r -> real(b, r));
        b.append("!\n");
    }

    private static void real(StringBuilder b, RealConfig r) {
        indent(b, 1).append("real ").append(ConfigValidator.realName(r)).append('\n');
        if (r.weight() != RealConfig.DEFAULT_WEIGHT) {
            indent(b, 2).append("weight ").append(r.weight()).append('\n');
        }
        if (r.maxConns() != RealConfig.DEFAULT_MAXCONNS) {
            indent(b, 2).append("maxconns ").append(r.maxConns()).append('\n');
        }
        if (r.maxClients() != RealConfig.DEFAULT_MAXCLIENTS) {
            indent(b, 2).append("maxclients ").append(r.maxClients()).append('\n');
        }
        if (r.rate() != 0) {
            indent(b, 2).append("rate ").append(r.rate()).append('\n');
        }
        if (r.reassign() != RealConfig.DEFAULT_REASSIGN) {
            indent(b, 2).append("reassign ").append(r.reassign()).append('\n');
        }
        int defaultClients = Math.min(r.faildetectNumconns(), RealConfig.DEFAULT_FAILDETECT_NUMCONNS);
        if (r.faildetectNumconns() != RealConfig.DEFAULT_FAILDETECT_NUMCONNS || r.faildetectNumclients() != defaultClients) {
            indent(b, 2).append("faildetect numconns ").append(r.faildetectNumconns());
            if (r.faildetectNumclients() != defaultClients) {
                b.append(" numclients ").append(r.faildetectNumclients());
            }
            b.append('\n');
        }
        if (!r.inbandFaildetect()) {
            indent(b, 2).append("no faildetect inband\n");
        }
        if (r.retrySeconds() != RealConfig.DEFAULT_RETRY_SECONDS) {
            indent(b, 2).append("retry ").append(r.retrySeconds()).append('\n');
        }
        r.extensions().forEach(x -> line(b, 2, x.tokens()));
        indent(b, 2).append(r.inService() ? "inservice\n" : "no inservice\n");
    }

    private static void vserver(StringBuilder b, VirtualServerConfig v) {
        line(b, 0, List.of("ip", "slb", "vserver", v.name()));
        if (v.address() != null) {
            indent(b, 1).append("virtual ").append(Args.text(v.address())).append(" udp ").append(v.port());
            if (v.service() != null) {
                b.append(" service ").append(v.service());
            }
            b.append('\n');
        }
        if (v.farm() != null) {
            indent(b, 1).append("serverfarm ").append(v.farm());
            if (v.backupFarm() != null) {
                b.append(" backup ").append(v.backupFarm()).append(v.backupSticky() ? " sticky" : "");
            }
            b.append('\n');
        }
        if (v.sticky() != null) {
            sticky(b, v);
        }
        if (v.idleSeconds() != VirtualServerConfig.DEFAULT_IDLE_SECONDS) {
            indent(b, 1).append("idle ").append(v.idleSeconds()).append('\n');
        }
        for (ClientRule c : v.clients()) {
            indent(b, 1).append("client ").append(Args.text(c.address())).append(' ')
                    .append(mask(c.address() instanceof Inet4Address, c.prefixLength()))
                    .append(c.exclude() ? " exclude" : "").append('\n');
        }
        v.extensions().forEach(x -> line(b, 1, x.tokens()));
        if (!v.inService()) {
            indent(b, 1).append("no inservice\n");
        } else if (v.standbyGroup() != null) {
            line(b, 1, List.of("inservice", "standby", v.standbyGroup()));
        } else {
            indent(b, 1).append("inservice\n");
        }
        b.append("!\n");
    }

    private static void sticky(StringBuilder b, VirtualServerConfig v) {
        StickyConfig s = v.sticky();
        boolean v4 = v.address() == null || v.address() instanceof Inet4Address;
        indent(b, 1).append("sticky ").append(s.seconds());
        if (s.group() != 0) {
            b.append(" group ").append(s.group());
        }
        if (s.prefixLength() != (v4 ? 32 : 128)) {
            b.append(" netmask ").append(mask(v4, s.prefixLength()));
        }
        b.append('\n');
    }

    private static String mask(boolean v4, int prefix) {
        return v4 ? Args.dottedMask(prefix) : "/" + prefix;
    }

    private static void line(StringBuilder b, int level, List<String> tokens) {
        indent(b, level).append(Tokenizer.join(tokens)).append('\n');
    }

    private static StringBuilder indent(StringBuilder b, int level) {
        return b.append(" ".repeat(level));
    }
}
