package io.mclb.probe;

/**
 * Which bring-up budget a probe type's checks count against (Brocade ADX: 50 bring-up checks at a
 * time "separately for TCP and UDP ports"): connection-oriented types (tcp, http) and the others
 * (custom udp, dns, ping, gtp-echo, radius), so a burst of one kind never starves the other.
 */
public enum BringUpClass {
    TCP,
    OTHER
}
