package io.mclb.gtp;

import io.mclb.net.DropReason;

/**
 * Every reason a GTP decoder refuses a datagram, declared once (label of
 * {@code mclb_drops_total{reason}}). Decoders return one of these instead of throwing.
 */
public final class GtpDrops {
    /** Fewer octets than the version's fixed header (v0 20, v1 8 or 12, v2 8 or 12), or not even one octet. */
    public static final DropReason TRUNCATED_HEADER = DropReason.of("gtp_truncated_header");
    /** Version field (octet 0 bits 8-6) not the one this flyweight decodes; 3..7 are never valid. */
    public static final DropReason UNSUPPORTED_VERSION = DropReason.of("gtp_unsupported_version");
    /** v0/v1 with PT = 0: GTP' (charging), which has its own header and is not balanced. */
    public static final DropReason GTP_PRIME = DropReason.of("gtp_prime");
    /** The header's length field claims more octets than the datagram holds. */
    public static final DropReason LENGTH_EXCEEDS_DATAGRAM = DropReason.of("gtp_length_exceeds_datagram");
    /** The length field is smaller than the header's own optional part (v1 seq block, v2 TEID/seq). */
    public static final DropReason LENGTH_TOO_SHORT = DropReason.of("gtp_length_too_short");
    /** v1 extension header with length 0, running past the message end, or not the length its type fixes (29.060 6.1). */
    public static final DropReason BAD_EXTENSION_HEADER = DropReason.of("gtp_bad_extension_header");
    /** An IE (its type/length octets or its value) extends past the message end. */
    public static final DropReason IE_OVERRUNS_MESSAGE = DropReason.of("gtp_ie_overruns_message");
    /** v0/v1 TV IE (type < 128) whose fixed length this decoder does not know: the rest cannot be parsed. */
    public static final DropReason UNKNOWN_FIXED_LENGTH_IE = DropReason.of("gtp_unknown_fixed_length_ie");
    /** IMSI (or v0 TID) holds a nibble A..E, or digits after the F filler. */
    public static final DropReason IMSI_NOT_BCD = DropReason.of("gtp_imsi_not_bcd");
    /** A message that must carry an IMSI (e.g. a Create request) has none. */
    public static final DropReason IMSI_MISSING = DropReason.of("gtp_imsi_missing");

    // Spec violations in what the decoders read (issue 14 item 5): each is dropped before anything
    // is forwarded, so a GGSN/PGW never sees what 29.060 / 29.274 / GSM 09.60 forbid.
    /** IMSI with fewer than 6 or more than 15 digits (23.003 2.2), a filler where the IE may not have one, or a v2 IMSI past 8 octets. */
    public static final DropReason BAD_IMSI = DropReason.of("gtp_bad_imsi");
    /** APN (v1 131, v2 71) empty, over 100 octets (23.003 9.1), or a label of length 0, over 63 or past the IE. */
    public static final DropReason BAD_APN = DropReason.of("gtp_bad_apn");
    /** v2 F-TEID shorter than 5 plus the addresses its V4/V6 flags announce, or with neither flag. */
    public static final DropReason BAD_FTEID = DropReason.of("gtp_bad_fteid");
    /** v0/v1 NSAPI IE outside 5..15 or with its spare high nibble set (24.008 10.5.6.2: 0..4 reserved). */
    public static final DropReason BAD_NSAPI = DropReason.of("gtp_bad_nsapi");
    /** v2 EBI empty, outside 5..15, or with its spare high nibble set (24.301 9.3.2: 0..4 not an EPS bearer). */
    public static final DropReason BAD_EBI = DropReason.of("gtp_bad_ebi");
    /** MSISDN empty, longer than 15 digits, a nibble that is not a digit, or a filler before the last nibble. */
    public static final DropReason BAD_MSISDN = DropReason.of("gtp_bad_msisdn");
    /** RAT Type IE (v1 151, v2 82) without its value octet. */
    public static final DropReason BAD_RAT_TYPE = DropReason.of("gtp_bad_rat_type");
    /** v2 Recovery IE without its restart counter octet. */
    public static final DropReason BAD_RECOVERY = DropReason.of("gtp_bad_recovery");
    /** Another IE shorter than its type's fixed part (GSN Address not 4 or 16, End User Address, QoS, v2 Cause, PAA, ULI...). */
    public static final DropReason BAD_IE_LENGTH = DropReason.of("gtp_bad_ie_length");
    /** v2 IE type 0, reserved (29.274 table 8.1-1). */
    public static final DropReason RESERVED_IE_TYPE = DropReason.of("gtp_reserved_ie_type");
    /** Octets after the message the length field delimits (v2 without P), or P set with nothing after it. */
    public static final DropReason LENGTH_MISMATCH = DropReason.of("gtp_length_mismatch");
    /** v2 request with P = 1: only responses carry a piggybacked initial message (29.274 annex F). */
    public static final DropReason BAD_PIGGYBACK = DropReason.of("gtp_bad_piggyback");
    /** v2 T flag against the type: 0 only for Echo Request/Response and Version Not Supported (29.274 5.5.1). */
    public static final DropReason BAD_TEID_FLAG = DropReason.of("gtp_bad_teid_flag");

    private GtpDrops() {
    }

    /**
     * The drop reason for a negative {@link Tbcd} result ({@link Tbcd#ABSENT} or {@link Tbcd#NOT_BCD}),
     * or {@code null} when {@code imsiResult} is a valid packed IMSI.
     */
    public static DropReason forImsi(long imsiResult) {
        if (imsiResult == Tbcd.ABSENT) {
            return IMSI_MISSING;
        }
        return imsiResult < 0 ? IMSI_NOT_BCD : null;
    }
}
