package io.mclb.gtp.v0;

/**
 * Where the IMSI and NSAPI sit in the 8-octet GTPv0 TID. Both layouts are mapped to the v1 IMSI IE
 * form (8 TBCD octets, filler F) so a subscriber has one sticky key across v0, v1 and v2.
 *
 * <ul>
 * <li>{@link #GSM_09_60}: TBCD IMSI in wire order, first digit in the low nibble of octet 12;
 *     the 16th nibble (high nibble of the last octet) is the NSAPI (gtp.md section 2, marked
 *     UNVERIFIED there: no real capture of a non-osmocom v0 peer was available).</li>
 * <li>{@link #OSMO_GGSN}: osmo-ggsn/sgsnemu put {@code htobe64((imsi & 0x0fff...) | nsapi << 60)}
 *     on the wire ({@code gtp/gtp.c} gtp_req/gtp_resp, {@code pdp_gettid} in {@code gtp/pdp.c}),
 *     where {@code imsi} is the 8 TBCD octets loaded little-endian: the TBCD octets appear
 *     byte-reversed and the NSAPI is the high nibble of the first octet. Checked against the
 *     tshark capture in peers.md section 7: IMSI 262010000000002, NSAPI 0 gives the TID octets
 *     {@code 02 00 00 00 00 01 02 62}, which tshark prints as "2000000000102026".</li>
 * </ul>
 */
public enum TidLayout {
    GSM_09_60,
    OSMO_GGSN;

    /** The TID as 8 TBCD octets in IMSI order (still carrying the NSAPI in the last high nibble). */
    long imsiOrder(long tid) {
        return this == OSMO_GGSN ? Long.reverseBytes(tid) : tid;
    }
}
