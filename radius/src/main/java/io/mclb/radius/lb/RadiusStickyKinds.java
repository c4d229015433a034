package io.mclb.radius.lb;

import io.mclb.sticky.StickyKind;

/** The subscriber identities RADIUS entries are keyed by ({@code sticky radius ...}). */
public final class RadiusStickyKinds {
    public static final StickyKind FRAMED_IP = StickyKind.of(3, "radius-framed-ip", StickyKind.Format.ADDRESS);
    public static final StickyKind CALLING_STATION_ID = StickyKind.of(4, "radius-calling-station-id",
            StickyKind.Format.TEXT);
    /** User-Name, or the 3GPP-IMSI VSA when present. */
    public static final StickyKind USERNAME = StickyKind.of(5, "radius-username", StickyKind.Format.TEXT);
    /** Which NAS learnt a framed-IP entry ({@link FramedIpOwners}): the key is the framed IP's, the value's real id the NAS's address. */
    public static final StickyKind FRAMED_IP_NAS = StickyKind.of(7, "radius-framed-ip-nas", StickyKind.Format.ADDRESS);

    private RadiusStickyKinds() {
    }
}
