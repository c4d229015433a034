package io.mclb.gtp;

import java.util.Arrays;
import java.util.Random;

/**
 * Seeded datagram mutations for the mobility services' fuzz tests: byte and bit flips, truncation,
 * trailing garbage, and writes at the protocol's sensitive offsets (type, lengths, ids) that the
 * caller names, so the decoders' length checks and type tables are reached, not just the first one.
 */
public final class FuzzBytes {
    private FuzzBytes() {
    }

    /** One to three mutations of {@code seed}; {@code hot} are offsets worth hitting (type, length fields). */
    public static byte[] mutate(byte[] seed, Random r, int... hot) {
        byte[] b = seed;
        for (int n = 1 + r.nextInt(3); n > 0; n--) {
            b = once(b, r, hot);
        }
        return b;
    }

    private static byte[] once(byte[] seed, Random r, int[] hot) {
        if (seed.length < 2) {
            byte[] b = Arrays.copyOf(seed, seed.length + 1);
            b[seed.length] = (byte) r.nextInt(256);
            return b;
        }
        byte[] b = seed.clone();
        switch (r.nextInt(6)) {
            case 0 -> b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            case 1 -> b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
            case 2 -> b = Arrays.copyOf(b, r.nextInt(b.length));
            case 3 -> {
                b = Arrays.copyOf(b, b.length + 1 + r.nextInt(40));
                for (int i = seed.length; i < b.length; i++) {
                    b[i] = (byte) r.nextInt(256);
                }
            }
            default -> {
                int at = hot[r.nextInt(hot.length)];
                if (at < b.length) {
                    b[at] = (byte) (r.nextBoolean() ? r.nextInt(256) : b[at] + r.nextInt(9) - 4);
                }
            }
        }
        return b;
    }
}
