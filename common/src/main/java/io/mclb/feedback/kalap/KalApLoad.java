package io.mclb.feedback.kalap;

/**
 * The IOS SLB KAL-AP load formulas (feature guide, "KAL-AP agent"; seed 001): 0..255, lower is
 * less loaded, {@value #OFFLINE} = offline. Pure functions; integer arithmetic in the guide's order
 * (multiply, then divide), then clamped to 0..255.
 */
public final class KalApLoad {
    private KalApLoad() {
    }

    public static final int OFFLINE = 255;

    /** Which formula gave a load. */
    public enum Mode {
        /** No {@code farm-weight}, or DFP off: from active and in-service reals. */
        RELATIVE,
        /** {@code farm-weight} set and DFP on: from the reals' weights. */
        ABSOLUTE
    }

    /**
     * {@code 256 - active x 256 / inService}: one of two reals active gives 128; none active, or
     * none in service, is offline.
     */
    public static int relative(int active, int inService) {
        if (inService <= 0) {
            return OFFLINE;
        }
        return clamp(256 - (long) active * 256 / inService);
    }

    /**
     * {@code 256 - weightSum x 256 / farmWeight}, the weight sum being the reals' reported DFP weights
     * (a real without a DFP weight counting its static one): 100 + 50 against farm-weight 200 gives 64.
     */
    public static int absolute(long weightSum, int farmWeight) {
        if (farmWeight <= 0) {
            throw new IllegalArgumentException("farm-weight " + farmWeight + " must be positive");
        }
        return clamp(256 - weightSum * 256 / farmWeight);
    }

    static int clamp(long v) {
        return (int) Math.max(0, Math.min(OFFLINE, v));
    }
}
