package io.mclb.predictor;

import io.mclb.config.PredictorKind;
import io.mclb.farm.RealServer;

/**
 * A load-balancing policy as a pure function of (candidates, decision number, time) -&gt; choice.
 * Implementations have no side effects on the reals (the farm claims the choice with
 * {@link RealServer#tryAcquire}), are safe to call from any thread, and allocate nothing per call
 * in steady state.
 */
public interface Predictor {
    /**
     * @param reals     the farm's current reals, in configuration order; not modified
     * @param cursor    a sequence number supplied by the farm, one per decision
     * @param nowNs     monotonic time, for eligibility (retry timers, rate windows)
     * @param exclude   a real not to choose (the one a request is being reassigned from), or null
     * @param newClient whether the work is for a new sticky client (maxclients applies)
     * @return index into {@code reals} of an eligible real, or -1 if none
     */
    int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient);

    /** The predictor for a farm's {@code predictor} line. */
    static Predictor of(PredictorKind k) {
        switch (k) {
            case ROUNDROBIN:
                return new WeightedRoundRobin();
            case LEASTCONNS:
                return new WeightedLeastConns();
            case ROUTE_MAP:
                throw new IllegalArgumentException("route-map predictor is provided by the radius module");
            default:
                throw new IllegalArgumentException("unknown predictor " + k);
        }
    }
}
