package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.radius.codec.RadiusSecret;

import java.util.Arrays;
import java.util.Collection;

/**
 * Each real's shared secret by {@link io.mclb.farm.RealId}: sorted ids searched by bisection, so
 * the per-request lookup allocates nothing. Immutable; rebuilt after every (re)load.
 */
final class RealSecrets {
    static final RealSecrets EMPTY = new RealSecrets(new long[0], new RadiusSecret[0]);

    private final long[] ids;
    private final RadiusSecret[] secrets;

    private RealSecrets(long[] ids, RadiusSecret[] secrets) {
        this.ids = ids;
        this.secrets = secrets;
    }

    static RealSecrets of(Collection<ServerFarm> farms) {
        int n = 0;
        for (ServerFarm f : farms) {
            n += f.reals().length;
        }
        long[] ids = new long[n];
        RealServer[] reals = new RealServer[n];
        int i = 0;
        for (ServerFarm f : farms) {
            for (RealServer r : f.reals()) {
                ids[i] = r.id();
                reals[i++] = r;
            }
        }
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Long.compare(ids[a], ids[b]));
        long[] sorted = new long[n];
        RadiusSecret[] secrets = new RadiusSecret[n];
        for (int k = 0; k < n; k++) {
            sorted[k] = ids[order[k]];
            secrets[k] = RadiusSettings.realSecret(reals[order[k]].config());
        }
        return new RealSecrets(sorted, secrets);
    }

    /** The real's secret, or null when it has none (or is unknown). */
    RadiusSecret of(long realId) {
        int i = Arrays.binarySearch(ids, realId);
        return i >= 0 ? secrets[i] : null;
    }
}
