package io.mclb.radius.lb;

import java.util.List;
import java.util.Map;

/**
 * The policy of {@code access-list N permit ip SRC WILDCARD any} and
 * {@code route-map NAME permit SEQ / match ip address N... / set ip next-hop IP}: for a
 * subscriber address (the Framed-IP-Address), the next hop of the first entry (by sequence)
 * whose access lists permit it. Only {@code permit} entries and source matching are supported;
 * an entry without {@code match} matches everything. Immutable, shared by every event loop;
 * lookups allocate nothing.
 */
final class RouteMaps {
    /** One {@code access-list N permit ip SRC WILDCARD any} line (IOS wildcard: 1 bits are "don't care"). */
    record AclLine(int source, int wildcard) {
        boolean permits(int ip) {
            return (ip & ~wildcard) == (source & ~wildcard);
        }
    }

    /** One {@code route-map NAME permit SEQ} entry; {@code acls} empty = match any. */
    record Entry(int seq, List<String> acls, int nextHop) {
    }

    private final Map<String, List<AclLine>> acls;
    private final Map<String, List<Entry>> maps;

    RouteMaps(Map<String, List<AclLine>> acls, Map<String, List<Entry>> maps) {
        this.acls = Map.copyOf(acls);
        this.maps = Map.copyOf(maps);
    }

    boolean has(String name) {
        return maps.containsKey(name);
    }

    boolean hasAcl(String n) {
        return acls.containsKey(n);
    }

    /** The entries of a route map, by sequence (validation). */
    List<Entry> entries(String name) {
        return maps.getOrDefault(name, List.of());
    }

    /** Next hop (IPv4 as int) for {@code framedIp} through {@code map}, or 0 when no entry matches. */
    int nextHop(List<Entry> map, int framedIp) {
        for (int i = 0; i < map.size(); i++) {
            Entry e = map.get(i);
            if (e.acls.isEmpty()) {
                return e.nextHop;
            }
            for (int j = 0; j < e.acls.size(); j++) {
                List<AclLine> acl = acls.get(e.acls.get(j));
                if (acl != null) {
                    for (int k = 0; k < acl.size(); k++) {
                        if (acl.get(k).permits(framedIp)) {
                            return e.nextHop;
                        }
                    }
                }
            }
        }
        return 0;
    }
}
