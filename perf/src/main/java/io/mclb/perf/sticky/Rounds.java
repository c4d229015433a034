package io.mclb.perf.sticky;

import java.util.Arrays;

/** What the sticky CPU programs share: their key sequence's step and how a run's rounds are reported. */
final class Rounds {
    private Rounds() {
    }

    /** xorshift64: the next key index, spread over the table without a Random per step. */
    static long next(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static long[] round(double[] v) {
        long[] r = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = Math.round(v[i]);
        }
        return r;
    }
}
