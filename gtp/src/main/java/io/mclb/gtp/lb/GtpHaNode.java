package io.mclb.gtp.lb;

import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;

import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * Which node of an HA pair this runtime is, for {@link GtpTeidAllocator}'s node bit: derived from
 * the pair's {@code replicate casa LISTEN-IP REMOTE-IP PORT} line, which the two nodes write as
 * mirror images (each names itself first). The node whose own address sorts lower (unsigned,
 * octet by octet) is node 0, the other node 1, so the two always differ without a line of their
 * own. Without replication the node is 0.
 *
 * <p>The {@code gtp} module may not depend on {@code ha} (DESIGN section 2), so the record is read
 * by its two address components ({@code listenAddress}, {@code remoteAddress}) rather than by its
 * type; this runs once per (re)start, never on the data path.
 */
final class GtpHaNode {
    private GtpHaNode() {
    }

    static int of(MclbConfig config) {
        for (VirtualServerConfig v : config.vservers().values()) {
            for (ExtensionLine x : v.extensions()) {
                int node = ofRecord(x.record());
                if (node >= 0) {
                    return node;
                }
            }
        }
        return 0;
    }

    /** The node a replication record (one with InetAddress components listenAddress and remoteAddress) says, or -1 for another record. */
    static int ofRecord(Object record) {
        if (record instanceof Record r) {
            InetAddress self = address(r, "listenAddress");
            InetAddress peer = address(r, "remoteAddress");
            if (self != null && peer != null) {
                return of(self, peer);
            }
        }
        return -1;
    }

    /** 0 when {@code self} sorts before {@code peer}, else 1. */
    static int of(InetAddress self, InetAddress peer) {
        return Arrays.compareUnsigned(self.getAddress(), peer.getAddress()) < 0 ? 0 : 1;
    }

    private static InetAddress address(Record r, String component) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            if (c.getName().equals(component) && c.getType() == InetAddress.class) {
                try {
                    c.getAccessor().setAccessible(true);
                    return (InetAddress) c.getAccessor().invoke(r);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
