package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.vserver.VserverSnapshot;

import java.net.Inet4Address;

/**
 * Finding a real among a virtual server's farms (primary, then backup) by address: the same AAA
 * in another farm (sticky entries written by the auth virtual server), or a route map's next hop.
 * Scans the farms' small arrays; allocates nothing.
 */
final class VserverReals {
    private VserverReals() {
    }

    /** The real of this virtual server's farms at {@code r}'s address (the same AAA in another farm), or null. */
    static RealServer sameAddress(VserverSnapshot s, RealServer r) {
        if (r == null) {
            return null;
        }
        RealServer found = byAddress(s.farm().reals(), r);
        if (found == null && s.backup() != null) {
            found = byAddress(s.backup().reals(), r);
        }
        return found;
    }

    static RealServer byAddress(RealServer[] reals, RealServer r) {
        for (RealServer x : reals) {
            if (x == r) {
                return x;
            }
        }
        for (RealServer x : reals) {
            if (x.address().equals(r.address())) {
                return x;
            }
        }
        return null;
    }

    /** The real whose IPv4 address is {@code hop} in the primary, then the backup farm, or null. */
    static RealServer realAt(VserverSnapshot s, int hop) {
        RealServer r = ipv4(s.farm().reals(), hop);
        return r != null || s.backup() == null ? r : ipv4(s.backup().reals(), hop);
    }

    static RealServer ipv4(RealServer[] reals, int hop) {
        for (RealServer x : reals) {
            if (x.address() instanceof Inet4Address && x.address().hashCode() == hop) {
                return x;
            }
        }
        return null;
    }
}
