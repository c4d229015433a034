package io.mclb.ha.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The groups one {@link GroupManager} runs, by name (configuration order) and by group number, with
 * the hello codec of each. The set is fixed at construction: a reload changes a group's settings,
 * never which groups run.
 *
 * <p>Several groups may share a number on different interfaces; a received message is decoded with
 * the first one's codec (the key of the first configured), a known limitation (ha/README.md).
 */
final class RunningGroups {
    private final Map<String, StandbyGroup> byName = new LinkedHashMap<>();
    private final Map<Integer, List<StandbyGroup>> byNumber = new HashMap<>();
    /** Replaced by {@link #rekey} on the {@code mclb-ha} thread; encoded with from there too. */
    private final Map<StandbyGroup, HelloCodec> codecs = new ConcurrentHashMap<>();

    /** Before the manager starts only. */
    void add(StandbyGroup g) {
        GroupConfig c = g.config();
        byName.put(c.name(), g);
        byNumber.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(g);
        codecs.put(g, new HelloCodec(c.key()));
    }

    /** A reload changed the group's key (or kept it): hellos are signed and checked with it from now. */
    void rekey(StandbyGroup g, byte[] key) {
        codecs.put(g, new HelloCodec(key));
    }

    StandbyGroup named(String name) {
        return byName.get(name);
    }

    /** The groups with this number, or null when none runs here. */
    List<StandbyGroup> numbered(int group) {
        return byNumber.get(group);
    }

    /** Our group that sends {@code h}: the one with its number on the address it was sent from. */
    StandbyGroup sending(Hello h) {
        for (StandbyGroup g : byNumber.get(h.group())) {
            if (g.config().address().equals(h.sender())) {
                return g;
            }
        }
        throw new IllegalStateException("no group " + h.group() + " for " + h.sender());
    }

    HelloCodec codec(StandbyGroup g) {
        return codecs.get(g);
    }

    Collection<StandbyGroup> all() {
        return byName.values();
    }

    Map<String, StandbyGroup> byName() {
        return Collections.unmodifiableMap(byName);
    }

    List<GroupConfig> configs() {
        return byName.values().stream().map(StandbyGroup::config).toList();
    }
}
