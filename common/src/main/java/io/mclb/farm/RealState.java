package io.mclb.farm;

/**
 * Real server states (DESIGN section 4; names as IOS SLB prints them, from CISCO-SLB-MIB).
 */
public enum RealState {
    /** In service and taking new work. */
    OPERATIONAL,
    /** Failed by faildetect (in-band) or a reassign-worthy answer; waits for {@code retry}. */
    FAILED,
    /**
     * Retry timer expired: the next qualifying request is the test connection. Also a real with
     * probes that has not passed every one of them yet (at start, or added by a reload): it takes
     * no work until it does.
     */
    TESTING,
    /** At {@code maxconns}: takes no new work until a connection ends. */
    MAXCONNS,
    /** At {@code maxclients}: takes no new sticky clients. */
    MAXCLIENTS,
    /** DFP set its weight to 0. */
    DFP_THROTTLED,
    /** A health probe failed it. */
    PROBE_FAILED,
    /** {@code no inservice}. */
    OUTOFSERVICE,
    /**
     * In-band failures reached {@code faildetect} on a real with probes: no new work while its
     * probes confirm (a failed probe fails it) or clear (a pass returns it to service) the suspicion.
     */
    SUSPECT,
    /** The master port of its {@code track-port} group is down: no new work whatever its own checks say. */
    MASTER_DOWN
}
