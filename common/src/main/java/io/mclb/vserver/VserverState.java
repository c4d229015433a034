package io.mclb.vserver;

/** Virtual server states as IOS SLB prints them. */
public enum VserverState {
    OPERATIONAL,
    OUTOFSERVICE,
    /** in service, but its HA group is not active on this node */
    STANDBY
}
