package io.mclb.gtp.mip;

import io.mclb.net.DropReason;

/**
 * Every reason the Mobile IP service refuses a datagram, declared once (label of
 * {@code mclb_drops_total{reason}}). The decoder returns one of these instead of throwing.
 */
public final class MipDrops {
    /** Empty, or fewer octets than the fixed part (24 for a Registration Request, 20 for a Reply). */
    public static final DropReason TRUNCATED = DropReason.of("mip_truncated");
    /** An extension's header or data runs past the end of the datagram. */
    public static final DropReason EXTENSION_OVERRUNS = DropReason.of("mip_extension_overruns");
    /** A message type other than Registration Request (1) or Reply (3). */
    /**
     * An extension shorter than its fixed part: an authentication extension (32 MN-HA, 33 MN-FA,
     * 34 FA-HA, RFC 5944 3.5.2; 36 generalized, RFC 3012) without its 4-octet SPI, an empty NAI
     * (131, RFC 2794), a CVSE (38) or NVSE (134, RFC 3115) without its vendor id and type.
     */
    public static final DropReason BAD_EXTENSION = DropReason.of("mip_bad_extension");
    public static final DropReason UNKNOWN_TYPE = DropReason.of("mip_unknown_type");
    /** A Registration Reply sent to the virtual address (replies come from home agents only). */
    public static final DropReason REPLY_TO_VIP = DropReason.of("mip_reply_to_vip");
    /** A home agent's answer that is no readable Registration Reply. */
    public static final DropReason MALFORMED_REPLY = DropReason.of("mip_malformed_reply");

    private MipDrops() {
    }
}
