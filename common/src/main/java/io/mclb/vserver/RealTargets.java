package io.mclb.vserver;

import io.mclb.farm.RealServer;

import java.net.InetSocketAddress;

/**
 * Where one relay sends each real's datagrams ({@link VirtualServer#targetOf}), built once per real
 * and port instead of a new {@code InetSocketAddress} per request. Direct-mapped by real id, keyed by
 * the {@link RealServer} object itself: a reload that replaces a real makes a new object, so an entry
 * can never answer for a real it was not built for (a replaced real's entry is overwritten or
 * dropped with the relay). Loop-confined, like its relay.
 */
final class RealTargets {
    private static final int SLOTS = 64;
    private final VirtualServer vs;
    private final RealServer[] reals = new RealServer[SLOTS];
    private final int[] ports = new int[SLOTS];
    private final InetSocketAddress[] targets = new InetSocketAddress[SLOTS];

    RealTargets(VirtualServer vs) {
        this.vs = vs;
    }

    InetSocketAddress of(RealServer real, int listenPort) {
        int i = (int) ((real.id() * 0x9E3779B97F4A7C15L) >>> 58); // the top 6 bits: one of 64 slots
        if (reals[i] == real && ports[i] == listenPort) {
            return targets[i];
        }
        InetSocketAddress t = vs.targetOf(real, listenPort);
        reals[i] = real;
        ports[i] = listenPort;
        targets[i] = t;
        return t;
    }
}
