package io.mclb.predictor;

import io.mclb.farm.RealServer;

/**
 * A load-balancing policy as a pure function of (candidates, decision number, time, request key)
 * -&gt; choice. Implementations have no side effects on the reals (the farm claims the choice with
 * {@link RealServer#tryAcquire}), are safe to call from any thread, and allocate nothing per call
 * in steady state.
 */
public interface Predictor {
    /**
     * @param reals     the candidates, in configuration order; not modified
     * @param cursor    a sequence number supplied by the farm, one per decision
     * @param nowNs     monotonic time, for eligibility (retry timers, rate windows)
     * @param exclude   a real not to choose (the one a request is being reassigned from), or null
     * @param newClient whether the work is for a new sticky client (maxclients applies)
     * @param routeKey  the request's own key for a {@link #keyed()} predictor (e.g. the subscriber's
     *                  IPv4 address for a route map), 0 when it has none; others ignore it
     * @return index into {@code reals} of an eligible real, or -1 if none
     */
    int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient, long routeKey);

    /** {@link #choose(RealServer[], long, long, RealServer, boolean, long)} for a request without a key. */
    default int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient) {
        return choose(reals, cursor, nowNs, exclude, newClient, 0);
    }

    /** The predictor of a farm's {@code predictor} line; a route map reads {@code routeMaps}. */
    static Predictor of(io.mclb.config.ServerFarmConfig farm, RouteMaps routeMaps) {
        return switch (farm.predictor()) {
            case ROUNDROBIN -> new WeightedRoundRobin();
            case LEASTCONNS -> new WeightedLeastConns();
            case ROUTE_MAP -> new RouteMapPredictor(routeMaps, farm.routeMap());
        };
    }

    /**
     * Whether the choice is a function of the request's key rather than of the load (a route map):
     * such a choice wins over a remembered sticky one, and a request without a key never uses it.
     */
    default boolean keyed() {
        return false;
    }
}
