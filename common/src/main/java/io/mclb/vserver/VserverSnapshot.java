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
}
