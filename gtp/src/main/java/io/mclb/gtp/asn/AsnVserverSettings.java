package io.mclb.gtp.asn;

import io.mclb.config.VirtualServerConfig;
import io.mclb.vserver.VirtualServer;

/**
 * The ASN settings of one virtual server, resolved once per configuration snapshot.
 *
 * @param sticky         {@code sticky asn msid [group N]} present: MSID entries in the sticky table
 * @param stickyGroup    N, or the virtual server's own group when N is 0 or absent
 * @param requestSeconds {@code idle asn request S} (default 30)
 * @param msidSeconds    {@code idle asn msid S} (default 3600): sticky entry and idle binding lifetime
 */
record AsnVserverSettings(boolean sticky, int stickyGroup, int requestSeconds, int msidSeconds) {
    static final int DEFAULT_REQUEST_SECONDS = 30;
    static final int DEFAULT_MSID_SECONDS = 3600;

    static AsnVserverSettings of(VirtualServerConfig c) {
        AsnLines.StickyMsid s = c.record(AsnLines.StickyMsid.class);
        AsnLines.IdleRequest r = c.record(AsnLines.IdleRequest.class);
        AsnLines.IdleMsid m = c.record(AsnLines.IdleMsid.class);
        return new AsnVserverSettings(s != null, s == null || s.group() == 0 ? VirtualServer.ownGroup(c.name())
                : s.group(), r == null ? DEFAULT_REQUEST_SECONDS : r.seconds(),
                m == null ? DEFAULT_MSID_SECONDS : m.seconds());
    }
}
