package io.mclb.predictor;

import io.mclb.farm.RealServer;

/**
 * IOS SLB weighted round robin (the default predictor): real i owns {@code operWeight(i)}
 * consecutive positions of a cycle of length sum(weights), in configuration order, so weights
 * 3,1,2 give A,A,A,B,C,C. Decision {@code cursor} takes position {@code cursor mod total}; if that
 * real is ineligible or excluded, the next eligible real in order takes the work. Weight 0 owns no
 * position and is never chosen.
 *
 * <p>Up to {@link #SMALL} reals the prefix sums are walked on the fly. Above that they are cached
 * with a binary search over them; the cache is keyed on the reals array's identity (the farm swaps
 * the array on reload) and {@link RealServer#weightEpoch()} (any weight change), so steady state
 * allocates nothing. Thread-safe: the cache is an immutable object behind a volatile field.
 */
public final class WeightedRoundRobin implements Predictor {
    static final int SMALL = 16;

    private static final class Prefix {
        final RealServer[] reals;
        final long epoch;
        /** prefix[i] = sum of the weights of reals 0..i. */
        final long[] prefix;

        Prefix(RealServer[] reals, long epoch) {
            this.reals = reals;
            this.epoch = epoch;
            this.prefix = new long[reals.length];
            long sum = 0;
            for (int i = 0; i < reals.length; i++) {
                sum += Math.max(0, reals[i].operWeight());
                prefix[i] = sum;
            }
        }

        long total() {
            return prefix.length == 0 ? 0 : prefix[prefix.length - 1];
        }

        /** First index whose prefix exceeds pos (0 &lt;= pos &lt; total). */
        int owner(long pos) {
            int lo = 0;
            int hi = prefix.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (prefix[mid] > pos) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
    }

    private volatile Prefix cache;

    @Override
    public int choose(RealServer[] reals, long cursor, long nowNs, RealServer exclude, boolean newClient,
                      long routeKey) {
        int n = reals.length;
        if (n == 0) {
            return -1;
        }
        int start = n <= SMALL ? ownerSmall(reals, cursor) : ownerCached(reals, cursor);
        if (start < 0) {
            return -1;
        }
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            RealServer r = reals[i];
            if (r != exclude && r.operWeight() > 0 && r.isEligible(nowNs, newClient)) {
                return i;
            }
        }
        return -1;
    }

    private static int ownerSmall(RealServer[] reals, long cursor) {
        long total = 0;
        for (RealServer r : reals) {
            total += Math.max(0, r.operWeight());
        }
        if (total == 0) {
            return -1;
        }
        long pos = Math.floorMod(cursor, total);
        long sum = 0;
        for (int i = 0; i < reals.length; i++) {
            sum += Math.max(0, reals[i].operWeight());
            if (sum > pos) {
                return i;
            }
        }
        // A weight changed between the two passes: start anywhere, eligibility decides.
        return 0;
    }

    private int ownerCached(RealServer[] reals, long cursor) {
        long epoch = RealServer.weightEpoch();
        Prefix p = cache;
        if (p == null || p.reals != reals || p.epoch != epoch) {
            p = new Prefix(reals, epoch);
            cache = p;
        }
        long total = p.total();
        return total == 0 ? -1 : p.owner(Math.floorMod(cursor, total));
    }

    @Override
    public String toString() {
        return "roundrobin";
    }
}
