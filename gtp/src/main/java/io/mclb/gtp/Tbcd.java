package io.mclb.gtp;

import io.netty.buffer.ByteBuf;

/**
 * Telephony BCD (3GPP TS 29.002 TBCD-STRING, used by the GTP IMSI IE, v2 MSISDN/MEI and the v0 TID):
 * two digits per octet, <b>first digit in the low nibble</b>; an odd digit count ends with the
 * filler 0xF in the last high nibble. Example from gtp.md section 8: IMSI 262011234567890 is
 * {@code 62 02 11 32 54 76 98 F0}.
 *
 * <p>Results are <b>packed longs</b> so nothing is allocated: bits 0-55 hold the digits as a decimal
 * number, bits 56-60 the digit count (leading zeros are significant, so the count is needed).
 * Negative results are errors: {@link #NOT_BCD} (a nibble A..E, or a non-F nibble after the filler)
 * and {@link #ABSENT} (used by message accessors when the IE is missing). At most 16 digits
 * (8 octets) are decoded: 10^16 &lt; 2^56.
 */
public final class Tbcd {
    /** A nibble 0xA..0xE, or a digit after an 0xF filler, or more than 8 octets. */
    public static final long NOT_BCD = -1L;
    /** The IE that should hold the digits is not in the message. */
    public static final long ABSENT = -2L;
    /** The 8-octet raw form of "no digits" (all fillers); never a valid IMSI key. */
    public static final long EMPTY_RAW = -1L;

    private static final long VALUE_MASK = (1L << 56) - 1;

    private Tbcd() {
    }

    /** Decodes {@code len} (0..8) octets at absolute {@code offset}; packed result or {@link #NOT_BCD}. */
    public static long decode(ByteBuf buf, int offset, int len) {
        if (len < 0 || len > 8) {
            return NOT_BCD;
        }
        long raw = 0;
        for (int i = 0; i < len; i++) {
            raw = (raw << 8) | (buf.getByte(offset + i) & 0xFF);
        }
        return decodeRaw(raw, len);
    }

    /**
     * Decodes the first {@code len} octets of {@code raw} (octets in wire order, most significant
     * octet of the {@code len}-octet value first, as {@link ByteBuf#getLong} reads 8 octets).
     */
    public static long decodeRaw(long raw, int len) {
        long value = 0;
        int count = 0;
        boolean filler = false;
        for (int i = len - 1; i >= 0; i--) {
            int octet = (int) (raw >>> (8 * i)) & 0xFF;
            for (int n = 0; n < 2; n++) {
                int digit = n == 0 ? octet & 0x0F : octet >>> 4;
                if (digit == 0x0F) {
                    filler = true;
                } else if (filler || digit > 9) {
                    return NOT_BCD;
                } else {
                    value = value * 10 + digit;
                    count++;
                }
            }
        }
        return ((long) count << 56) | value;
    }

    /** Decimal digit value of a packed result (meaningless for negative results). */
    public static long digits(long packed) {
        return packed & VALUE_MASK;
    }

    /** Digit count of a packed result. */
    public static int digitCount(long packed) {
        return (int) (packed >>> 56);
    }

    /** Packs {@code count} digits with decimal value {@code digits} (what {@link #decode} returns). */
    public static long pack(long digits, int count) {
        return ((long) count << 56) | digits;
    }

    /** The digits of a packed result as text, leading zeros kept (for logs and tools, allocates). */
    public static String toString(long packed) {
        if (packed < 0) {
            return packed == ABSENT ? "absent" : "not-bcd";
        }
        StringBuilder sb = new StringBuilder(Long.toString(digits(packed)));
        while (sb.length() < digitCount(packed)) {
            sb.insert(0, '0');
        }
        return sb.toString();
    }

    /**
     * Encodes a digit string (1..16 digits) to the 8-octet raw form, filler 0xF in every unused
     * nibble: the sticky key shape shared by v0, v1 and v2 (see {@code imsiRaw()} accessors).
     *
     * @throws IllegalArgumentException for a non-digit or a bad length (config/test time, not the data path)
     */
    public static long encodeRaw(CharSequence digits) {
        int n = digits.length();
        if (n == 0 || n > 16) {
            throw new IllegalArgumentException("TBCD needs 1..16 digits: " + digits);
        }
        long raw = -1L;
        for (int i = 0; i < n; i++) {
            int d = digits.charAt(i) - '0';
            if (d < 0 || d > 9) {
                throw new IllegalArgumentException("not a decimal digit in " + digits);
            }
            int shift = 8 * (7 - i / 2) + (i % 2 == 0 ? 0 : 4);
            raw = (raw & ~(0xFL << shift)) | ((long) d << shift);
        }
        return raw;
    }

    /** Writes the minimal octets of {@code digits} ((n+1)/2) at the writer index. */
    public static int write(ByteBuf out, CharSequence digits) {
        long raw = encodeRaw(digits);
        int octets = (digits.length() + 1) / 2;
        for (int i = 0; i < octets; i++) {
            out.writeByte((int) (raw >>> (8 * (7 - i))));
        }
        return octets;
    }

    /**
     * Reads {@code len} (1..8) octets at {@code offset} as an 8-octet raw key, padding missing octets
     * with 0xFF so that the same IMSI gives the same key whether it came in 8 octets (v1) or fewer (v2).
     */
    public static long readRaw(ByteBuf buf, int offset, int len) {
        long raw = -1L;
        for (int i = 0; i < len && i < 8; i++) {
            int shift = 8 * (7 - i);
            raw = (raw & ~(0xFFL << shift)) | ((long) (buf.getByte(offset + i) & 0xFF) << shift);
        }
        return raw;
    }
}
