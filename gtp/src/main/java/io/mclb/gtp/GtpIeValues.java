package io.mclb.gtp;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * The value rules that the v0/v1 and v2 IE checks share, as reads over the buffer (nothing is
 * allocated): TBCD digit strings (29.002 TBCD-STRING; IMSI E.212 at most 15 digits, MSISDN E.164
 * at most 15) and the APN's label-length form (23.003 section 9.1: labels 1..63 octets, the whole
 * APN at most 100). Checked against Wireshark's packet-e212.c ({@code dissect_e212_imsi} marks an
 * IMSI over 15 digits malformed) and packet-gtp.c / packet-gtpv2.c ({@code decode_apn}).
 */
public final class GtpIeValues {
    /** 23.003 section 2.2: at most 15; at least MCC (3) + MNC (2) + one MSIN digit (osmocom's GSM23003_IMSI_MIN_DIGITS). */
    public static final int MIN_IMSI_DIGITS = 6;
    public static final int MAX_IMSI_DIGITS = 15;
    public static final int MAX_MSISDN_DIGITS = 15;
    public static final int MAX_APN_OCTETS = 100;
    public static final int MAX_APN_LABEL = 63;

    private GtpIeValues() {
    }

    /**
     * An IMSI value: {@code padded} for v1's fixed 8 octets, where an IMSI shorter than 15 digits
     * fills the rest with F (osmo-ggsn's {@code gtp_imsi_str2gtp} does); v2's IMSI is as long as
     * its digits, so an F may only be the last high nibble (29.274 section 8.3).
     */
    public static DropReason imsi(ByteBuf buf, int offset, int len, boolean padded) {
        if (len < 1 || len > 8) {
            return GtpDrops.BAD_IMSI;
        }
        int digits = digits(buf, offset, len, padded);
        if (digits == NOT_A_DIGIT) {
            return GtpDrops.IMSI_NOT_BCD;
        }
        return digits < MIN_IMSI_DIGITS || digits > MAX_IMSI_DIGITS ? GtpDrops.BAD_IMSI : null;
    }

    /** MSISDN digits (v2 IE 76; v1 134 after its nature-of-address octet): 1..15 digits 0-9, F only last. */
    public static DropReason msisdnDigits(ByteBuf buf, int offset, int len) {
        if (len > 8) {
            return GtpDrops.BAD_MSISDN; // 15 digits fill 8 octets
        }
        int digits = digits(buf, offset, len, false);
        return digits < 1 || digits > MAX_MSISDN_DIGITS ? GtpDrops.BAD_MSISDN : null;
    }

    private static final int NOT_A_DIGIT = -1;
    private static final int MISPLACED_FILLER = -2;

    /**
     * The digit count, or {@link #NOT_A_DIGIT} (A..E, a digit after the filler), or {@link #MISPLACED_FILLER}.
     * {@code len} is 0..8 octets here (callers bound it); they are read once (one {@code getLong} for
     * 8) and the nibbles taken from the long: the hot path's IMSI check is arithmetic, not 16 reads.
     */
    private static int digits(ByteBuf buf, int offset, int len, boolean padded) {
        long raw = len == 8 ? buf.getLong(offset) : 0;
        if (len != 8) {
            for (int i = 0; i < len; i++) {
                raw = (raw << 8) | (buf.getByte(offset + i) & 0xFF);
            }
        }
        int count = 0;
        boolean filler = false;
        int nibbles = len * 2;
        for (int i = 0; i < nibbles; i++) {
            int octet = (int) (raw >>> (8 * (len - 1 - (i >>> 1)))) & 0xFF;
            int d = (i & 1) == 0 ? octet & 0x0F : octet >>> 4;
            if (d == 0x0F) {
                if (!padded && i != nibbles - 1) {
                    return MISPLACED_FILLER;
                }
                filler = true;
            } else if (filler || d > 9) {
                return NOT_A_DIGIT;
            } else {
                count++;
            }
        }
        return count;
    }

    /** An APN value in label-length form: 1..100 octets, every label 1..63 octets and inside the IE. */
    public static DropReason apn(ByteBuf buf, int offset, int len) {
        if (len < 1 || len > MAX_APN_OCTETS) {
            return GtpDrops.BAD_APN;
        }
        int end = offset + len;
        for (int p = offset; p < end; ) {
            int label = buf.getByte(p) & 0xFF;
            if (label == 0 || label > MAX_APN_LABEL || p + 1 + label > end) {
                return GtpDrops.BAD_APN;
            }
            p += 1 + label;
        }
        return null;
    }

    /** A 256-entry table indexed by IE type from {type, value} pairs (0 elsewhere); class-init time. */
    public static int[] byType(int[][] pairs) {
        int[] t = new int[256];
        for (int[] e : pairs) {
            t[e[0]] = e[1];
        }
        return t;
    }

    /** A GSN / Charging Gateway address: IPv4 or IPv6, nothing else (29.060 7.7.32, 7.7.44). */
    public static boolean isAddressLength(int len) {
        return len == 4 || len == 16;
    }
}
