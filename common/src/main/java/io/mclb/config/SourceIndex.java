package io.mclb.config;

import java.util.Map;
import java.util.Set;

/**
 * Where the parser found each setting, so validation errors point at the line to fix. A
 * configuration built in code has an empty index; errors then point at the object's own source.
 */
record SourceIndex(Map<String, SourceRef> where, Set<String> broken) {

    static final SourceIndex EMPTY = new SourceIndex(Map.of(), Set.of());

    SourceRef at(String object, String setting, SourceRef fallback) {
        SourceRef r = where.get(object + "\u0000" + setting);
        return r != null ? r : fallback;
    }

    /** The setting's line was rejected, so rules about it would only repeat that error. */
    boolean broken(String object, String setting) {
        return broken.contains(object + "\u0000" + setting);
    }
}
