package io.mclb.predictor;

import java.util.List;

/**
 * One {@code route-map NAME permit SEQ} entry with {@code match ip address N...} (empty = match
 * any) and {@code set ip next-hop IP}.
 */
public record RouteMapEntry(String map, int seq, List<Integer> acls, int nextHop) {
    public RouteMapEntry {
        acls = List.copyOf(acls);
    }
}
