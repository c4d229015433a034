package io.mclb.predictor;

import io.mclb.farm.RealServer;

import java.net.Inet4Address;
import java.util.List;

/**
 * IOS SLB {@code predictor route-map NAME}: the request's key (the subscriber's IPv4 address, e.g.
 * a RADIUS Framed-IP-Address) goes through the route map, and the real whose address is the next
 * hop takes it, if it can. No next hop, or a next hop that is no eligible candidate: -1, and the
 * virtual server's backup farm balances the request. Keyed: the choice does not depend on load.
 */
public final class RouteMapPredictor implements Predictor {
    private final RouteMaps maps;
    private final List<RouteMapEntry> entries;

    public RouteMapPredictor(RouteMaps maps, String map) {
        this.maps = maps;
        this.entries = maps.entries(map);
    }

    @Override
    public int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient,
                      long routeKey) {
        if (routeKey == 0) {
            return -1;
        }
        int hop = maps.nextHop(entries, (int) routeKey);
        if (hop == 0) {
            return -1;
        }
        for (int i = 0; i < reals.length; i++) {
            RealServer r = reals[i];
            if (r.address() instanceof Inet4Address && r.address().hashCode() == hop) {
                return r != exclude && r.isEligible(nowNs, newClient) ? i : -1;
            }
        }
        return -1;
    }

    @Override
    public boolean keyed() {
        return true;
    }

    @Override
    public String toString() {
        return "route-map";
    }
}
