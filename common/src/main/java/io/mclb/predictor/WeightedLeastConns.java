package io.mclb.predictor;

import io.mclb.farm.RealServer;

/**
 * IOS SLB {@code predictor leastconns}: the eligible real with the lowest
 * activeConnections / operWeight. Ratios are compared cross-multiplied (conns &lt; 2^32 and
 * weight &lt; 2^16, so the products fit a long). Ties go to the first real in rotation order
 * starting at {@code cursor % n}, so an idle farm spreads new work instead of piling it on the
 * first real. Weight 0 is never chosen. Stateless.
 */
public final class WeightedLeastConns implements Predictor {
    @Override
    public int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient,
                      long routeKey) {
        int n = reals.length;
        if (n == 0) {
            return -1;
        }
        int start = (int) Math.floorMod(cursor, (long) n);
        int best = -1;
        long bestConns = 0;
        long bestWeight = 1;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            RealServer r = reals[i];
            if (r == exclude) {
                continue;
            }
            int w = r.operWeight();
            if (w <= 0 || !r.isEligible(nowNs, newClient)) {
                continue;
            }
            long c = r.activeConnections();
            if (best < 0 || c * bestWeight < bestConns * w) {
                best = i;
                bestConns = c;
                bestWeight = w;
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return "leastconns";
    }
}
