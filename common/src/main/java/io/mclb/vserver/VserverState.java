package io.mclb.vserver;

/** Virtual server states as IOS SLB prints them. */
public enum VserverState {
    OPERATIONAL,
    OUTOFSERVICE,
    /** in service, but its HA group is not active on this node */
    STANDBY,
    /**
     * in service and serving, but no real of its farm or backup farm can take work (failed, probe
     * failed, testing, suspect, out of service...): new requests are dropped as {@code no_real_available}
     */
    ALL_REALS_DOWN
}
