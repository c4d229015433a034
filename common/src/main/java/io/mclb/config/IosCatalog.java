package io.mclb.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The IOS SLB lines an operator brings from an IOS box that neither the engine nor a module
 * takes (reference/ios-slb-config.md sections 1-3): each is either <em>ignored</em> (it does not
 * apply to mclb, and mclb behaves as the operator expects without it: a warning saying why) or
 * <em>unsupported</em> (IOS would behave differently with it and this build cannot: an error,
 * because running without it would silently change behaviour). Anything not listed here and not
 * claimed is an unknown command. Keyed by the line's first word (inside a block) or its word after
 * {@code ip slb} (global), a {@code no} prefix included.
 */
final class IosCatalog {
    /** What to do with a known IOS line nobody claims. */
    record Disposition(boolean ignored, String reason) {
    }

    private static Disposition ignored(String why) {
        return new Disposition(true, why);
    }

    private static Disposition unsupported(String why) {
        return new Disposition(false, why);
    }

    private static final Map<String, Disposition> GLOBAL = Map.ofEntries(
            Map.entry("entries", ignored("mclb sizes its tables itself: 'mclb sticky entries' for the sticky table")),
            Map.entry("maxbuffers", ignored("mclb does not reassemble IP fragments")),
            Map.entry("natpool", ignored("mclb proxies from its own address: there is no client NAT pool")),
            Map.entry("static", ignored("mclb does no static NAT")),
            Map.entry("timers", ignored("not a timer mclb has")),
            Map.entry("route", ignored("mclb balances signalling only: subscriber data traffic does not pass through it")),
            Map.entry("replicate", ignored("mclb streams every sticky change to the standby as it happens, unthrottled")),
            Map.entry("firewallfarm", unsupported("firewall load balancing is not part of mclb")),
            Map.entry("map", unsupported("protocol maps (WSP, RTSP) are not part of mclb")),
            Map.entry("mode", unsupported("mclb has one mode: proxy")));

    private static final Map<String, Disposition> VSERVER = Map.ofEntries(
            // claimed by the engine's AdvertiseSyntax in every runtime; reached only by a grammar without it
            Map.entry("advertise", ignored("route health injection is not part of this grammar")),
            Map.entry("delay", ignored("a TCP connection timer; mclb balances UDP")),
            // claimed by the engine's OverloadSyntax in every runtime; reached only by a grammar without it
            Map.entry("synguard", ignored("a TCP SYN-flood guard; mclb balances UDP")),
            Map.entry("access", ignored("interface restrictions are the host's packet filter's job")),
            Map.entry("replicate", ignored("stateful backup: the HA module takes 'replicate casa' lines, and it is not"
                    + " loaded here")),
            Map.entry("gtp", ignored("GTP session options: mclb always tracks sessions with service gtp-inspect")),
            Map.entry("hand-off", unsupported("RADIUS hand-off between access gateways is not built")),
            Map.entry("purge", unsupported("this purge form is not built (purge radius framed-ip acct on-off|stop is)")));

    private static final Map<String, Disposition> FARM = Map.ofEntries(
            Map.entry("nat", ignored("mclb always proxies from its own address, as IOS 'nat server' directed mode does")),
            Map.entry("access", ignored("interface restrictions are the host's packet filter's job")));

    private IosCatalog() {
    }

    /** The disposition of a known IOS line in {@code block}, or null when it is not one. */
    static Disposition of(ConfigBlock block, List<String> t) {
        int i = Args.is(t, 0, "no") ? 1 : 0;
        if (i >= t.size()) {
            return null;
        }
        return switch (block) {
            case GLOBAL -> Args.is(t, i, "ip") && Args.is(t, i + 1, "slb") && i + 2 < t.size()
                    ? GLOBAL.get(t.get(i + 2).toLowerCase(Locale.ROOT)) : null;
            case VSERVER -> VSERVER.get(t.get(i).toLowerCase(Locale.ROOT));
            case SERVERFARM -> FARM.get(t.get(i).toLowerCase(Locale.ROOT));
            case REAL -> null;
        };
    }
}
