package io.mclb.perf.gtp.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A weighted choice of Create response causes, e.g. {@code 128:95,199:5} (95 % accepted, 5 %
 * "no resources"). Weights are relative integers. Immutable; {@link #pick} draws from the caller's
 * seeded {@link Random} so a run is reproducible.
 */
public final class CauseMix {
    private final int[] causes;
    private final int[] cumulative;
    private final int total;

    private CauseMix(int[] causes, int[] weights) {
        this.causes = causes.clone();
        this.cumulative = new int[weights.length];
        int sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
        }
        this.total = sum;
    }

    /** Always {@code cause}. */
    public static CauseMix fixed(int cause) {
        return new CauseMix(new int[] {checkCause(cause)}, new int[] {1});
    }

    /**
     * Parses {@code CAUSE:WEIGHT[,CAUSE:WEIGHT...]}; a bare {@code CAUSE} means weight 1.
     *
     * @throws IllegalArgumentException on a bad number, a cause outside 0..255, a negative weight or a zero total
     */
    public static CauseMix parse(String text) {
        List<int[]> entries = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int colon = p.indexOf(':');
            try {
                int cause = Integer.parseInt(colon < 0 ? p : p.substring(0, colon).trim());
                int weight = colon < 0 ? 1 : Integer.parseInt(p.substring(colon + 1).trim());
                if (weight < 0) {
                    throw new IllegalArgumentException("negative weight in cause mix: " + p);
                }
                entries.add(new int[] {checkCause(cause), weight});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad cause mix entry '" + p + "' (want CAUSE:WEIGHT)", e);
            }
        }
        int[] causes = new int[entries.size()];
        int[] weights = new int[entries.size()];
        long sum = 0;
        for (int i = 0; i < causes.length; i++) {
            causes[i] = entries.get(i)[0];
            weights[i] = entries.get(i)[1];
            sum += weights[i];
        }
        if (sum <= 0 || sum > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cause mix needs a positive total weight: " + text);
        }
        return new CauseMix(causes, weights);
    }

    /** One cause drawn with the configured weights. */
    public int pick(Random random) {
        if (causes.length == 1) {
            return causes[0];
        }
        int r = random.nextInt(total);
        for (int i = 0; i < cumulative.length; i++) {
            if (r < cumulative[i]) {
                return causes[i];
            }
        }
        return causes[causes.length - 1];
    }

    /**
     * The same mix with every v1 cause replaced by its v2 analogue (gtp.md section 12): accept
     * 128-130 -> 16-19, 199 -> 73, 204 -> 72, 211 -> 84, 212 -> 91, 210 -> 64, 219 -> 78,
     * 229 -> 113, other rejects -> 94 (request rejected), other values kept.
     */
    public CauseMix toV2() {
        int[] mapped = new int[causes.length];
        int[] weights = new int[causes.length];
        for (int i = 0; i < causes.length; i++) {
            mapped[i] = v1ToV2(causes[i]);
            weights[i] = cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
        }
        return new CauseMix(mapped, weights);
    }

    static int v1ToV2(int cause) {
        return switch (cause) {
            case 128 -> 16;
            case 129 -> 18;
            case 130 -> 19;
            case 199 -> 73;
            case 204 -> 72;
            case 211 -> 84;
            case 212 -> 91;
            case 210 -> 64;
            case 219 -> 78;
            case 229 -> 113;
            default -> cause >= 192 ? 94 : cause;
        };
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < causes.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(causes[i]).append(':').append(cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]));
        }
        return sb.toString();
    }

    private static int checkCause(int cause) {
        if (cause < 0 || cause > 255) {
            throw new IllegalArgumentException("cause must be 0..255: " + cause);
        }
        return cause;
    }
}
