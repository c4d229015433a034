package io.mclb.config;

import io.mclb.service.ConfigSyntax;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cross-object rules of the engine, run on a parsed configuration, then the rules of each
 * {@link ConfigSyntax} extension.
 *
 * <p>Engine rules: every vserver has a {@code virtual} line and an existing {@code serverfarm}
 * (a backup farm must exist and differ from the primary); no two vservers share address and port;
 * a farm has at least one real unless its predictor is a route map, which takes none; no real
 * appears twice in a farm; vservers in one sticky group agree on the sticky timeout.
 *
 * <p>Extensions are run only when the engine found no error, so they may assume a structurally
 * sound configuration (every vserver has an address and an existing farm).
 */
public final class ConfigValidator {

    private ConfigValidator() {
    }

    /** Validates a configuration built in code; errors point at each object's own source. */
    public static void validate(MclbConfig config, List<ConfigSyntax> extensions, ConfigSyntax.ErrorSink sink) {
        validate(config, extensions, SourceIndex.EMPTY, sink);
    }

    /** The engine's rules only; returns whether they found an error. */
    static boolean validateEngine(MclbConfig config, SourceIndex index, ConfigSyntax.ErrorSink sink) {
        boolean[] failed = {false};
        ConfigSyntax.ErrorSink counting = new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef at, String message) {
                failed[0] = true;
                sink.error(at, message);
            }

            @Override
            public void warning(SourceRef at, String message) {
                sink.warning(at, message);
            }
        };
        config.farms().values().forEach(f -> farm(f, index, counting));
        vservers(config, index, counting);
        return failed[0];
    }

    /** @return whether the engine rules found an error (extensions were then not run) */
    static boolean validate(MclbConfig config, List<ConfigSyntax> extensions, SourceIndex index,
                            ConfigSyntax.ErrorSink sink) {
        boolean[] failed = {false};
        ConfigSyntax.ErrorSink counting = new ConfigSyntax.ErrorSink() {
            @Override
            public void error(SourceRef at, String message) {
                failed[0] = true;
                sink.error(at, message);
            }

            @Override
            public void warning(SourceRef at, String message) {
                sink.warning(at, message);
            }
        };
        config.farms().values().forEach(f -> farm(f, index, counting));
        vservers(config, index, counting);
        if (!failed[0]) {
            for (ConfigSyntax x : extensions) {
                x.validate(config, sink);
            }
        }
        return failed[0];
    }

    private static void farm(ServerFarmConfig f, SourceIndex index, ConfigSyntax.ErrorSink sink) {
        String object = "serverfarm " + f.name();
        if (f.predictor() == PredictorKind.ROUTE_MAP) {
            for (RealConfig r : f.reals()) {
                sink.error(r.source(), "real " + realName(r) + ": serverfarm " + f.name() + " uses predictor route-map "
                        + f.routeMap() + ", which takes no real servers");
            }
            return;
        }
        if (f.reals().isEmpty() && !index.broken(object, "real")) {
            sink.error(f.source(), object + ": no real servers, add 'real IP [PORT]' (only a farm with"
                    + " predictor route-map has none)");
        }
        for (int i = 0; i < f.reals().size(); i++) {
            RealConfig r = f.reals().get(i);
            for (int j = 0; j < i; j++) {
                if (r.sameIdentity(f.reals().get(j))) {
                    sink.error(r.source(), "real " + realName(r) + ": duplicate real in serverfarm " + f.name()
                            + ", first defined at line " + f.reals().get(j).source().line());
                    break;
                }
            }
        }
    }

    private static void vservers(MclbConfig config, SourceIndex index, ConfigSyntax.ErrorSink sink) {
        Map<String, VirtualServerConfig> listeners = new HashMap<>();
        Map<Integer, VirtualServerConfig> groups = new HashMap<>();
        for (VirtualServerConfig v : config.vservers().values()) {
            String object = "vserver " + v.name();
            if (v.address() == null) {
                if (!index.broken(object, "virtual")) {
                    sink.error(v.source(), object + ": no virtual line, add 'virtual IP udp PORT'");
                }
            } else {
                for (int port : v.listenPorts()) { // an all-ports (udp 0) virtual server holds each of its ports
                    VirtualServerConfig other = listeners.putIfAbsent(Args.text(v.address()) + " " + port, v);
                    if (other != null) {
                        sink.error(index.at(object, "virtual", v.source()), "virtual " + Args.text(v.address())
                                + " udp " + port + ": already used by vserver " + other.name());
                        break;
                    }
                }
            }
            farmRef(config, v, index, sink);
            if (v.sticky() != null && v.sticky().group() != 0) {
                VirtualServerConfig first = groups.putIfAbsent(v.sticky().group(), v);
                if (first != null && first.sticky().seconds() != v.sticky().seconds()) {
                    sink.error(index.at(object, "sticky", v.source()), "sticky " + v.sticky().seconds() + " group "
                            + v.sticky().group() + ": vservers in one sticky group must agree on the timeout (vserver "
                            + first.name() + " has " + first.sticky().seconds() + ")");
                }
            }
        }
    }

    private static void farmRef(MclbConfig config, VirtualServerConfig v, SourceIndex index,
                                ConfigSyntax.ErrorSink sink) {
        String object = "vserver " + v.name();
        if (index.broken(object, "serverfarm")) {
            return;
        }
        SourceRef at = index.at(object, "serverfarm", v.source());
        if (v.farm() == null) {
            sink.error(v.source(), object + ": no serverfarm line, add 'serverfarm NAME'");
            return;
        }
        if (!config.farms().containsKey(v.farm())) {
            sink.error(at, "serverfarm " + v.farm() + ": no such server farm" + defined(config));
        }
        if (v.backupFarm() != null) {
            if (v.backupFarm().equals(v.farm())) {
                sink.error(at, "backup " + v.backupFarm() + ": the backup server farm must differ from the primary");
            } else if (!config.farms().containsKey(v.backupFarm())) {
                sink.error(at, "backup " + v.backupFarm() + ": no such server farm" + defined(config));
            }
        }
    }

    private static String defined(MclbConfig config) {
        return config.farms().isEmpty() ? " (none defined)"
                : " (defined: " + String.join(", ", config.farms().keySet()) + ")";
    }

    static String realName(RealConfig r) {
        return Args.text(r.address()) + (r.port() == 0 ? "" : " " + r.port());
    }
}
