package io.mclb.probe;

/**
 * {@code mclb probe bring-up [max-checks N] [cycle-ms MS]}: at most {@code maxChecks} bring-up
 * checks in flight per class, topped up every {@code cycleMs} (defaults from the Brocade ADX seed:
 * 50 per 100 ms).
 */
public record BringUpSettings(int maxChecks, int cycleMs) {
    public static final BringUpSettings DEFAULT = new BringUpSettings(50, 100);
}
