package io.mclb.testing;

import io.mclb.sticky.StickyKind;

/**
 * The protocol modules' sticky kinds, declared again (same codes and labels, so the same kinds)
 * for tests of modules that must not depend on the protocol modules: the engine, HA replication.
 */
public final class TestStickyKinds {
    public static final StickyKind GTP_IMSI = StickyKind.of(2, "gtp-imsi", StickyKind.Format.TBCD);
    public static final StickyKind RADIUS_FRAMED_IP = StickyKind.of(3, "radius-framed-ip", StickyKind.Format.ADDRESS);
    public static final StickyKind RADIUS_CALLING_STATION_ID = StickyKind.of(4, "radius-calling-station-id",
            StickyKind.Format.TEXT);
    public static final StickyKind RADIUS_USERNAME = StickyKind.of(5, "radius-username", StickyKind.Format.TEXT);
    public static final StickyKind ASN_MSID = StickyKind.of(6, "asn-msid", StickyKind.Format.TEXT);

    private TestStickyKinds() {
    }
}
