package io.mclb.vserver;

import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;

/**
 * What the data path of one virtual server reads per datagram: its configuration and the farms
 * it balances over, swapped atomically as one object on reload.
 *
 * @param backup null when no backup farm is configured
 */
public record VserverSnapshot(VirtualServerConfig config, ServerFarm farm, ServerFarm backup) {

    /** The real for a sticky entry's real id, in the primary or the backup farm; null if gone. */
    public RealServer realById(long realId) {
        RealServer r = farm.byId(realId);
        if (r == null && backup != null) {
            r = backup.byId(realId);
        }
        return r;
    }

    /**
     * The real of this virtual server's farms (primary, then backup) at {@code r}'s address: the same
     * server in another farm (an entry the auth virtual server's farm wrote, a GTPv0 virtual server's
     * entry for a GGSN of the v1 farm), or null. Scans the farms' small arrays; allocates nothing.
     */
    public RealServer sameAddress(RealServer r) {
        if (r == null) {
            return null;
        }
        RealServer found = byAddress(farm.reals(), r);
        return found == null && backup != null ? byAddress(backup.reals(), r) : found;
    }

    private static RealServer byAddress(RealServer[] reals, RealServer r) {
        for (RealServer x : reals) {
            if (x.address().equals(r.address())) {
                return x;
            }
        }
        return null;
    }
}
