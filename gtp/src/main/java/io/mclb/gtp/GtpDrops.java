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
    /** v1 extension header with length 0 or running past the message end. */
    public static final DropReason BAD_EXTENSION_HEADER = DropReason.of("gtp_bad_extension_header");
    /** An IE (its type/length octets or its value) extends past the message end. */
    public static final DropReason IE_OVERRUNS_MESSAGE = DropReason.of("gtp_ie_overruns_message");
    /** v0/v1 TV IE (type < 128) whose fixed length this decoder does not know: the rest cannot be parsed. */
    public static final DropReason UNKNOWN_FIXED_LENGTH_IE = DropReason.of("gtp_unknown_fixed_length_ie");
    /** IMSI (or v0 TID) holds a nibble A..E, or digits after the F filler. */
    public static final DropReason IMSI_NOT_BCD = DropReason.of("gtp_imsi_not_bcd");
    /** A message that must carry an IMSI (e.g. a Create request) has none. */
    public static final DropReason IMSI_MISSING = DropReason.of("gtp_imsi_missing");

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
