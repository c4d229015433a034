package io.mclb.feedback.sidecar;

/**
 * The weight formulas of Cisco's mobile-core DFP agents (IOS SLB feature guide, seed 001;
 * reference/dfp-kalap.md section 6), as pure functions of the load the sidecar reads.
 *
 * <p>CPU and memory enter as free shares 0..1 (idle CPU, available memory). The Home Agent formula's
 * {@code (cpu + mem) / 32} reads as two 0..16 headroom scores (UNVERIFIED in the reference), which
 * is {@code (cpuFree + memFree) / 2} here; the GGSN agent also weighs CPU and memory (V) by an
 * undocumented arithmetic, so the same factor is used (UNVERIFIED).
 */
public enum WeightFormula {
    /**
     * GGSN: {@code maxWeight x (maxPdp - current) / maxPdp x cpuMemFactor}, 0 at or above maxPdp
     * (the guide's "existing PDP contexts / maximum PDP contexts" as an occupancy; maxPdp is
     * {@code gprs maximum-pdp-context-allowed}, default 10,000).
     */
    GGSN(8, 10_000),
    /**
     * Home agent and ASN gateway: {@code (maxBindings - current) / maxBindings x (cpu + mem) / 32 x
     * maxWeight}, maxWeight 24 (CISCO-SLB-DFP-MIB), maxBindings 235,000 (feature guide, U).
     */
    BINDING(24, 235_000);

    private final int defaultMaxWeight;
    private final long defaultCapacity;

    WeightFormula(int defaultMaxWeight, long defaultCapacity) {
        this.defaultMaxWeight = defaultMaxWeight;
        this.defaultCapacity = defaultCapacity;
    }

    public int defaultMaxWeight() {
        return defaultMaxWeight;
    }

    /** Max PDP contexts (GGSN) or max bindings (binding formula) when the operator gives none. */
    public long defaultCapacity() {
        return defaultCapacity;
    }

    /**
     * @param current   PDP contexts or bindings now
     * @param capacity  the maximum of them
     * @param cpuFree   idle CPU share 0..1 (1 when not measured)
     * @param memFree   free memory share 0..1 (1 when not measured)
     * @return the weight, 0..maxWeight, rounded half up
     */
    public int weight(double current, long capacity, int maxWeight, double cpuFree, double memFree) {
        if (capacity <= 0 || maxWeight <= 0) {
            throw new IllegalArgumentException("capacity " + capacity + " and max weight " + maxWeight + " must be positive");
        }
        double occupancyFree = Math.max(0.0, (capacity - Math.max(0.0, current)) / capacity);
        double cpuMem = (clamp(cpuFree) * 16 + clamp(memFree) * 16) / 32;
        return (int) Math.min(maxWeight, Math.round(maxWeight * occupancyFree * cpuMem));
    }

    private static double clamp(double share) {
        return Double.isNaN(share) ? 0 : Math.max(0.0, Math.min(1.0, share));
    }
}
