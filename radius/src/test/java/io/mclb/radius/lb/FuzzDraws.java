package io.mclb.radius.lb;

import java.util.SplittableRandom;

/** The two draws every part of the RADIUS fuzz makes, from whichever seeded stream it owns. */
final class FuzzDraws {
    private FuzzDraws() {
    }

    /** One of {@code v}, uniformly. */
    static int pick(SplittableRandom rnd, int... v) {
        return v[rnd.nextInt(v.length)];
    }

    /** {@code len} random bytes. */
    static byte[] bytes(SplittableRandom rnd, int len) {
        byte[] b = new byte[len];
        rnd.nextBytes(b);
        return b;
    }
}
