package io.mclb.gtp.v1;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpIeValues;
import io.mclb.gtp.TrafficFlowTemplate;
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
 *  135 QoS Profile           allocation/retention octet + 3, or + 11 and more        7.7.34
 *  137 TFT                   24.008 10.5.6.12 structure ({@link TrafficFlowTemplate}) 7.7.36
 *  148 Common Flags          at least 1 octet                                        7.7.48
 *  149 APN Restriction, 151 RAT Type   exactly 1 octet                               7.7.49, 7.7.50
 *  211 Extended RANAP Cause 2 octets, 25.413 Cause value at most 512                7.7.110
 *  other known types         their fixed part ({@link #MIN_LENGTH})
 *  251 Charging Gateway Addr 4 or 16 octets                                          7.7.44
 * </pre>
 */
public final class GtpV1IeRules {
    private static final int EUA_IETF = 1;
    private static final int EUA_IPV4 = 0x21;
    private static final int EUA_IPV6 = 0x57;
    private static final int EUA_IPV4V6 = 0x8D;

    private static final int APN_RESTRICTION = 149;
    private static final int EXTENDED_RANAP_CAUSE = 211;

    /**
     * The fixed part of the other TLV types a peer may send (value octets; 0 = no minimum):
     * 29.060 section 7.7 read with Wireshark 4.0's packet-gtp.c as the second source, by decoding
     * every type with zero-filled values of 0..39 octets in tshark and keeping the shortest one it
     * reads without an error where every longer one is clean too. 128 End User Address, 130 PDP
     * Context, 136 Authentication Quintuplet (RAND, XRES, CK, IK, AUTN), 139 UTRAN Transparent Container, 152 ULI, 153 MS Time Zone, 156 MBMS UE Context,
     * 160 MBMS Service Area, 162 Additional Trace Info, 164 Selected PLMN ID, 168 MBMS Session
     * Duration, 169 Additional MBMS Trace Info, 174 Cell Identification, 175 PDU Numbers,
     * 189 RFSP Index, 192 Evolved ARP II, 194 UCI, 198 AMBR, 199 UE Network Capability,
     * 201 APN-AMBR with NSAPI, 204 Signalling Priority Indication with NSAPI, 206 (reserved, but
     * Wireshark reads 8), 207 Additional MM Context for SRVCC, 211 Extended RANAP Cause,
     * 212 eNodeB ID, 213 Selection Mode with NSAPI, 214 ULI Timestamp, 217 UE Usage Type,
     * 219 Node Identifier, 221 SCEF PDN Connection, 223 Mapped UE Usage Type.
     */
    private static final int[] MIN_LENGTH = GtpIeValues.byType(new int[][] {
        {128, 2}, {130, 27}, {136, 51}, {139, 4}, {152, 8}, {153, 2}, {156, 12}, {160, 6}, {162, 9}, {164, 3}, {168, 3},
        {169, 8}, {174, 17}, {175, 9}, {189, 2}, {192, 2}, {194, 8}, {198, 8}, {199, 2}, {201, 9}, {204, 2},
        {206, 8}, {207, 3}, {211, 2}, {212, 9}, {213, 2}, {214, 4}, {217, 4}, {219, 2}, {221, 4}, {223, 2},
    });

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
            // 24.008 10.5.6.5: ARP + 3 (R97/98) or + 11 and more (R99 and later)
            case GtpV1Ie.QOS_PROFILE -> len == 4 || len >= 12 ? null : GtpDrops.BAD_IE_LENGTH;
            case GtpV1Ie.TFT -> TrafficFlowTemplate.isWellFormed(buf, offset, len) ? null : GtpDrops.BAD_IE_LENGTH;
            case GtpV1Ie.COMMON_FLAGS -> len < 1 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV1Ie.RAT_TYPE -> len != 1 ? GtpDrops.BAD_RAT_TYPE : null;
            case APN_RESTRICTION -> len != 1 ? GtpDrops.BAD_IE_LENGTH : null;
            // 25.413 Cause: 1..512 (tshark's PER decoder refuses larger values)
            case EXTENDED_RANAP_CAUSE -> len < 2 || buf.getUnsignedShort(offset) > 512 ? GtpDrops.BAD_IE_LENGTH : null;
            default -> type < MIN_LENGTH.length && len < MIN_LENGTH[type] ? GtpDrops.BAD_IE_LENGTH : null;
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
