package io.mclb.service;

/**
 * Whether a virtual server with {@code inservice standby NAME} may serve on this node now.
 * The HA module implements it (active in the named group); without HA every group is "active".
 */
public interface ServingGate {
    ServingGate ALWAYS = group -> true;

    boolean isActive(String standbyGroup);
}
