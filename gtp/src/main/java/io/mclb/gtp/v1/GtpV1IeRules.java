package io.mclb.gtp.v1;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpIeValues;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * What a GTPv0/v1 IE's value must hold, beyond fitting in the message (29.060 section 7.7, GSM
 * 09.60 section 7.9): the checks {@link GtpV1IeIndex} runs on every IE it walks, so a request
 * that violates one is never forwarded. TV lengths are fixed by {@link GtpV1Ie}; here are the
 * value rules and the TLV types whose length the spec fixes or bounds. Unknown TLV types pass
 * untouched (open code points). Reads only, nothing allocated.
 *
 * <pre>
 *  type                      rule                                                  29.060
 *  2   IMSI (TV 8)           1..15 TBCD digits, F padding to the end                7.7.2
 *  20  NSAPI (TV 1)          spare high nibble 0, NSAPI 5..15 (24.008 10.5.6.2)     7.7.17
 *  128 End User Address      PDP type org/number, then 0, 4, 16 or 4+16 octets      7.7.27
 *  131 APN                   label-length form, labels 1..63, at most 100 octets    7.7.30
 *  133 GSN Address           4 (IPv4) or 16 (IPv6) octets                            7.7.32
 *  134 MSISDN                nature octet (ext bit set) + 1..15 digits, 2..9 octets  7.7.33
 *  135 QoS Profile           allocation/retention octet + at least 3                 7.7.34
 *  148 Common Flags, 151 RAT Type  at least 1 octet                                  7.7.48, 7.7.50
 *  152 User Location Info    type + MCC/MNC + LAC + CI/SAC/RAC: 8 octets             7.7.51
 *  153 MS Time Zone          2 octets                                                7.7.52
 *  251 Charging Gateway Addr 4 or 16 octets                                          7.7.44
 * </pre>
 */
public final class GtpV1IeRules {
    private static final int EUA_IETF = 1;
    private static final int EUA_IPV4 = 0x21;
    private static final int EUA_IPV6 = 0x57;
    private static final int EUA_IPV4V6 = 0x8D;

    private GtpV1IeRules() {
    }

    /** Null when the value of IE {@code type} at {@code offset} ({@code len} octets, inside the message) is well formed. */
    public static DropReason check(int type, ByteBuf buf, int offset, int len) {
        return switch (type) {
            case GtpV1Ie.IMSI -> GtpIeValues.imsi(buf, offset, len, true);
            case GtpV1Ie.NSAPI -> {
                int v = buf.getByte(offset) & 0xFF;
                yield v < 5 || v > 15 ? GtpDrops.BAD_NSAPI : null;
            }
            case GtpV1Ie.END_USER_ADDRESS -> endUserAddress(buf, offset, len);
            case GtpV1Ie.APN -> GtpIeValues.apn(buf, offset, len);
            case GtpV1Ie.GSN_ADDRESS, GtpV1Ie.CHARGING_GATEWAY_ADDRESS ->
                    GtpIeValues.isAddressLength(len) ? null : GtpDrops.BAD_IE_LENGTH;
            case GtpV1Ie.MSISDN -> len < 2 || len > 9 || (buf.getByte(offset) & 0x80) == 0 ? GtpDrops.BAD_MSISDN
                    : GtpIeValues.msisdnDigits(buf, offset + 1, len - 1);
            case GtpV1Ie.QOS_PROFILE -> len < 4 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV1Ie.COMMON_FLAGS -> len < 1 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV1Ie.RAT_TYPE -> len < 1 ? GtpDrops.BAD_RAT_TYPE : null;
            case GtpV1Ie.USER_LOCATION_INFO -> len < 8 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV1Ie.MS_TIME_ZONE -> len < 2 ? GtpDrops.BAD_IE_LENGTH : null;
            default -> null;
        };
    }

    /** PDP type organisation (low nibble of octet 1, 1 = IETF) and number; the address part is empty when dynamic. */
    private static DropReason endUserAddress(ByteBuf buf, int offset, int len) {
        if (len < 2) {
            return GtpDrops.BAD_IE_LENGTH;
        }
        if ((buf.getByte(offset) & 0x0F) != EUA_IETF) {
            return null; // ETSI (PPP): no address
        }
        int address = len - 2;
        boolean ok = switch (buf.getByte(offset + 1) & 0xFF) {
            case EUA_IPV4 -> address == 0 || address == 4;
            case EUA_IPV6 -> address == 0 || address == 16;
            case EUA_IPV4V6 -> address == 0 || address == 4 || address == 16 || address == 20;
            default -> true;
        };
        return ok ? null : GtpDrops.BAD_IE_LENGTH;
    }
}
