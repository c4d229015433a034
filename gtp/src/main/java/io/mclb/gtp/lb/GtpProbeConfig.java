package io.mclb.gtp.lb;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.ServerFarmConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ip slb probe NAME gtp-echo} with sub-lines {@code interval S} (default 60),
 * {@code faildetect N} (default 3 consecutive unanswered echoes) and {@code timeout S} (how long
 * an echo waits for its answer, default 10, capped at the interval).
 */
public record GtpProbeConfig(String name, int intervalSeconds, int faildetect, int timeoutSeconds) {
    public static final int DEFAULT_INTERVAL = 60;
    public static final int DEFAULT_FAILDETECT = 3;
    public static final int DEFAULT_TIMEOUT = 10;

    static GtpProbeConfig of(ExtensionLine stanza) {
        int interval = DEFAULT_INTERVAL;
        int fail = DEFAULT_FAILDETECT;
        Integer timeout = null;
        for (List<String> c : stanza.children()) {
            switch (c.get(0).toLowerCase(Locale.ROOT)) {
                case "interval" -> interval = Integer.parseInt(c.get(1));
                case "faildetect" -> fail = Integer.parseInt(c.get(1));
                case "timeout" -> timeout = Integer.parseInt(c.get(1));
                default -> { }
            }
        }
        int t = Math.min(timeout == null ? DEFAULT_TIMEOUT : timeout, interval);
        return new GtpProbeConfig(stanza.tokens().get(3), interval, fail, t);
    }

    /** Every gtp-echo probe of a configuration, by name. */
    public static Map<String, GtpProbeConfig> all(MclbConfig config) {
        Map<String, GtpProbeConfig> out = new LinkedHashMap<>();
        for (ExtensionLine x : config.globalExtensions(GtpConfigSyntax.OWNER)) {
            if (GtpConfigSyntax.isProbeHeader(x.tokens())) {
                GtpProbeConfig p = of(x);
                out.put(p.name(), p);
            }
        }
        return out;
    }

    /** The farm's {@code probe NAME} line naming a gtp-echo probe, or null. */
    public static String probeOf(ServerFarmConfig farm) {
        for (ExtensionLine x : farm.extensions()) {
            if (x.owner().equals(GtpConfigSyntax.OWNER) && x.tokens().get(0).equalsIgnoreCase("probe")) {
                return x.tokens().get(1);
            }
        }
        return null;
    }

    /** Whether the farm has {@code failaction gtp purge}. */
    public static boolean purgeOnRestart(ServerFarmConfig farm) {
        for (ExtensionLine x : farm.extensions()) {
            if (x.owner().equals(GtpConfigSyntax.OWNER) && x.tokens().get(0).equalsIgnoreCase("failaction")) {
                return true;
            }
        }
        return false;
    }
}
