package io.mclb.farm;

import io.mclb.config.SourceRef;

import java.util.List;

/**
 * {@code track-port MASTER PORT...} in a {@code real IP [PORT]} block (Brocade ADX
 * {@code hc-track-port}, seed 004): the reals at this IP on the listed ports (in any farm) form a
 * group whose first port is the master; while the master is down the others take no new work,
 * whatever their own checks say. {@code no track-port} is the record with no ports.
 */
public record TrackPort(List<Integer> ports, SourceRef source) {
    public TrackPort {
        ports = List.copyOf(ports);
    }

    public int master() {
        return ports.get(0);
    }

    public List<Integer> tracked() {
        return ports.subList(1, ports.size());
    }
}
