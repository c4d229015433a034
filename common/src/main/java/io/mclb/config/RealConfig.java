package io.mclb.config;

import java.net.InetAddress;
import java.util.List;

/**
 * {@code real IP [PORT]} inside a server farm, with IOS SLB defaults (reference/ios-slb-config.md
 * section 8): weight 8, maxconns 4294967295, reassign 3, faildetect numconns 8 numclients 8,
 * retry 60 s, in-band failure detection on; out of service until {@code inservice}.
 *
 * @param port 0 = the virtual server's port
 * @param rate new connections per second, 0 = unlimited
 */
public record RealConfig(InetAddress address, int port, int weight, long maxConns, long maxClients, int rate,
                         int reassign, int faildetectNumconns, int faildetectNumclients, boolean inbandFaildetect,
                         int retrySeconds, boolean inService, List<ExtensionLine> extensions, SourceRef source) {

    public static final int DEFAULT_WEIGHT = 8;
    public static final long DEFAULT_MAXCONNS = 4_294_967_295L;
    public static final long DEFAULT_MAXCLIENTS = 4_294_967_295L;
    public static final int DEFAULT_REASSIGN = 3;
    public static final int DEFAULT_FAILDETECT_NUMCONNS = 8;
    public static final int DEFAULT_RETRY_SECONDS = 60;

    public RealConfig {
        extensions = List.copyOf(extensions);
    }

    public static RealConfig defaults(InetAddress address, int port, SourceRef source) {
        return new RealConfig(address, port, DEFAULT_WEIGHT, DEFAULT_MAXCONNS, DEFAULT_MAXCLIENTS, 0,
                DEFAULT_REASSIGN, DEFAULT_FAILDETECT_NUMCONNS, DEFAULT_FAILDETECT_NUMCONNS, true,
                DEFAULT_RETRY_SECONDS, false, List.of(), source);
    }

    /** Same real (address and port), used to match reals across a reload. */
    public boolean sameIdentity(RealConfig o) {
        return address.equals(o.address) && port == o.port;
    }

    /** Equality for reload diffs ignores where the real sat in the file. */
    public boolean sameSettings(RealConfig o) {
        return sameIdentity(o) && weight == o.weight && maxConns == o.maxConns && maxClients == o.maxClients
                && rate == o.rate && reassign == o.reassign && faildetectNumconns == o.faildetectNumconns
                && faildetectNumclients == o.faildetectNumclients && inbandFaildetect == o.inbandFaildetect
                && retrySeconds == o.retrySeconds && inService == o.inService && sameLines(extensions, o.extensions);
    }

    static boolean sameLines(List<ExtensionLine> a, List<ExtensionLine> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).sameAs(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    public RealConfig withWeight(int w) {
        return new RealConfig(address, port, w, maxConns, maxClients, rate, reassign, faildetectNumconns,
                faildetectNumclients, inbandFaildetect, retrySeconds, inService, extensions, source);
    }

    public RealConfig withInService(boolean s) {
        return new RealConfig(address, port, weight, maxConns, maxClients, rate, reassign, faildetectNumconns,
                faildetectNumclients, inbandFaildetect, retrySeconds, s, extensions, source);
    }

    /** The records of type {@code type} claimed in this block, in file order. */
    public <T> java.util.List<T> records(Class<T> type) {
        return ExtensionLine.records(extensions, type);
    }

    /** The first record of type {@code type} claimed in this block, or null. */
    public <T> T record(Class<T> type) {
        return ExtensionLine.record(extensions, type);
    }
}
