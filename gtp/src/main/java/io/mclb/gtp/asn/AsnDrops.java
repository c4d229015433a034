package io.mclb.gtp.asn;

import io.mclb.net.DropReason;

/**
 * Every reason the ASN gateway service refuses a datagram, declared once (label of
 * {@code mclb_drops_total{reason}}). The decoder returns one of these instead of throwing.
 */
public final class AsnDrops {
    /** Fewer than the 20 octets of the R6 header. */
    public static final DropReason TRUNCATED_HEADER = DropReason.of("asn_truncated_header");
    /** Version octet other than 1 (the only one defined; Wireshark's wimaxasncp rejects others too). */
    public static final DropReason UNSUPPORTED_VERSION = DropReason.of("asn_unsupported_version");
    /** The length field is below the 20-octet header it includes. */
    public static final DropReason LENGTH_TOO_SHORT = DropReason.of("asn_length_too_short");
    /** The length field claims more octets than the datagram holds. */
    public static final DropReason LENGTH_EXCEEDS_DATAGRAM = DropReason.of("asn_length_exceeds_datagram");
    /** Octets after the message the header's length delimits: the length must cover the whole datagram. */
    public static final DropReason LENGTH_MISMATCH = DropReason.of("asn_length_mismatch");
    /** A TLV's type/length or value runs past the message's length. */
    public static final DropReason TLV_OVERRUNS_MESSAGE = DropReason.of("asn_tlv_overruns_message");
    /** OP ID 0 (invalid) or 5..7 (reserved). */
    public static final DropReason INVALID_OP_ID = DropReason.of("asn_invalid_op_id");
    /** A Response (OP ID 2) sent to the virtual address: base stations send requests, acks and indications. */
    public static final DropReason RESPONSE_TO_VIP = DropReason.of("asn_response_to_vip");

    private AsnDrops() {
    }
}
