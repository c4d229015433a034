package io.mclb.predictor;

import io.mclb.config.MclbConfig;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The route maps and access lists of one configuration: for a subscriber address, the next hop of
 * the first entry (by sequence) whose access lists permit it. Only {@code permit} entries and
 * source matching exist (RADIUS framed-IP routing, IOS "Turbo RADIUS"). Immutable, shared by every
 * event loop; lookups allocate nothing.
 */
public final class RouteMaps {
    public static final RouteMaps EMPTY = new RouteMaps(Map.of(), Map.of());

    private final Map<Integer, List<AccessListLine>> acls;
    private final Map<String, List<RouteMapEntry>> maps;

    private RouteMaps(Map<Integer, List<AccessListLine>> acls, Map<String, List<RouteMapEntry>> maps) {
        this.acls = Map.copyOf(acls);
        this.maps = Map.copyOf(maps);
    }

    /** The route maps of a configuration's {@code access-list} and {@code route-map} records. */
    public static RouteMaps of(MclbConfig c) {
        Map<Integer, List<AccessListLine>> acls = new HashMap<>();
        for (AccessListLine a : c.records(AccessListLine.class)) {
            acls.computeIfAbsent(a.number(), k -> new ArrayList<>()).add(a);
        }
        Map<String, List<RouteMapEntry>> maps = new HashMap<>();
        for (RouteMapEntry e : c.records(RouteMapEntry.class)) {
            maps.computeIfAbsent(e.map(), k -> new ArrayList<>()).add(e);
        }
        for (List<RouteMapEntry> l : maps.values()) {
            l.sort(Comparator.comparingInt(RouteMapEntry::seq));
        }
        return new RouteMaps(acls, maps);
    }

    public boolean has(String map) {
        return maps.containsKey(map);
    }

    /** The entries of a route map, by sequence. */
    public List<RouteMapEntry> entries(String map) {
        return maps.getOrDefault(map, List.of());
    }

    /** Next hop (IPv4 as int) for {@code ip} through {@code map}, or 0 when no entry matches. */
    public int nextHop(List<RouteMapEntry> map, int ip) {
        for (int i = 0; i < map.size(); i++) {
            RouteMapEntry e = map.get(i);
            if (e.acls().isEmpty()) {
                return e.nextHop();
            }
            for (int j = 0; j < e.acls().size(); j++) {
                List<AccessListLine> acl = acls.get(e.acls().get(j));
                if (acl != null) {
                    for (int k = 0; k < acl.size(); k++) {
                        if (acl.get(k).permits(ip)) {
                            return e.nextHop();
                        }
                    }
                }
            }
        }
        return 0;
    }
}
