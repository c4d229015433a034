package io.mclb.config;

import java.util.List;

/**
 * {@code ip slb serverfarm NAME}.
 *
 * @param routeMap     the route map's name when {@code predictor route-map NAME}, else null
 * @param failActionPurge {@code failaction purge}: sticky entries of a real that fails are removed
 *                     (protocol forms such as {@code failaction gtp purge} are extension lines)
 */
public record ServerFarmConfig(String name, PredictorKind predictor, String routeMap, boolean failActionPurge,
                               List<RealConfig> reals, List<ExtensionLine> extensions, SourceRef source) {
    public ServerFarmConfig {
        reals = List.copyOf(reals);
        extensions = List.copyOf(extensions);
    }

    /** Equality for reload diffs ignores where the farm sat in the file. */
    public boolean sameSettings(ServerFarmConfig o) {
        if (!name.equals(o.name) || predictor != o.predictor || !java.util.Objects.equals(routeMap, o.routeMap)
                || failActionPurge != o.failActionPurge || reals.size() != o.reals.size()
                || !RealConfig.sameLines(extensions, o.extensions)) {
            return false;
        }
        for (int i = 0; i < reals.size(); i++) {
            if (!reals.get(i).sameSettings(o.reals.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The records of type {@code type} claimed in this block, in file order. */
    public <T> java.util.List<T> records(Class<T> type) {
        return ExtensionLine.records(extensions, type);
    }

    /** The first record of type {@code type} claimed in this block, or null. */
    public <T> T record(Class<T> type) {
        return ExtensionLine.record(extensions, type);
    }
}
