package io.mclb.gtp.v2;

import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpIeValues;
import io.mclb.gtp.TrafficFlowTemplate;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * What a GTPv2-C IE's value must hold (29.274 section 8), checked by {@link GtpV2Message} on every
 * top-level IE and every IE inside a Bearer Context, so a request that violates one is never
 * forwarded. An IE longer than its type's fixed part is accepted: 29.274 section 8.2.1 has a
 * receiver ignore octets a later release appends. Shorter is malformed (Wireshark's
 * packet-gtpv2.c reads past it). Unknown types pass untouched (open code points); type 0 is
 * reserved. Reads only, nothing allocated.
 *
 * <pre>
 *  type                        minimum / rule                                         29.274
 *  1   IMSI                    1..8 octets, 1..15 TBCD digits, F only last nibble      8.3
 *  2   Cause                   2, or 6 and more (with the offending IE)                8.4
 *  3   Recovery                1                                                       8.5
 *  71  APN                     label-length form, labels 1..63, at most 100 octets     8.6
 *  73  EBI                     spare high nibble 0, EBI 5..15 (24.301 9.3.2)           8.8
 *  76  MSISDN                  1..15 TBCD digits, F only last nibble                   8.11
 *  79  PAA                     PDN type 1: 5, 2: 18, 3: 22                              8.14
 *  84  Bearer TFT, 85 TAD      24.008 10.5.6.12 structure                              8.19, 8.20
 *  82  RAT Type                1                                                       8.17
 *  86  ULI                     the parts its flags announce (CGI/SAI/RAI 7, TAI 5,     8.21
 *                              ECGI 7, LAI 5, macro eNB 6, extended macro eNB 6)
 *  87  F-TEID                  5 + 4 if V4 + 16 if V6; V4 or V6 set                    8.22
 *  94  Charging ID exactly 4, 99 PDN Type exactly 1, 127 APN Restriction 1, 128 Selection Mode 1
 *  other known types           their fixed part ({@link #MIN_LENGTH})
 * </pre>
 */
public final class GtpV2IeRules {
    private static final int FTEID_V4 = 0x80;
    private static final int FTEID_V6 = 0x40;

    private static final int TRAFFIC_AGGREGATE_DESCRIPTION = 85;

    /**
     * The fixed part of the other types (value octets; 0 = no minimum): 29.274 section 8 read
     * with Wireshark 4.0's packet-gtpv2.c as the second source, by decoding every type with
     * zero-filled values of 0..39 octets in tshark and keeping the shortest one it reads without
     * an error where every longer one is clean too (e.g. 72 AMBR 8, 77 Indication 2, 80 Bearer
     * QoS 22, 83 Serving Network 3, 87 F-TEID 5, 95 Charging Characteristics 2, 255 Private
     * Extension 2).
     */
    private static final int[] MIN_LENGTH = GtpIeValues.byType(new int[][] {
        {54, 36}, {57, 7}, {58, 7}, {59, 4}, {61, 7}, {72, 8}, {77, 2}, {80, 22}, {81, 21}, {83, 3}, {87, 5},
        {88, 4}, {89, 5}, {95, 2}, {102, 2}, {103, 15}, {104, 38}, {106, 38}, {108, 38}, {110, 9}, {111, 4},
        {112, 3}, {114, 2}, {115, 6}, {117, 10}, {118, 2}, {120, 3}, {121, 9}, {124, 9}, {126, 2}, {129, 11},
        {132, 5}, {138, 3}, {141, 2}, {142, 5}, {144, 2}, {145, 8}, {147, 4}, {154, 2}, {158, 6}, {159, 3},
        {161, 8}, {164, 8}, {166, 5}, {169, 2}, {170, 4}, {176, 2}, {178, 4}, {179, 4}, {183, 4}, {184, 2},
        {186, 2}, {189, 7}, {196, 4}, {198, 4}, {199, 5}, {200, 2}, {201, 27}, {204, 20}, {205, 11},
        {206, 6}, {207, 4}, {255, 2},
    });

    private GtpV2IeRules() {
    }

    /** Null when the value of IE {@code type} at {@code offset} ({@code len} octets, inside the message) is well formed. */
    public static DropReason check(int type, ByteBuf buf, int offset, int len) {
        return switch (type) {
            case 0 -> GtpDrops.RESERVED_IE_TYPE;
            case GtpV2Ie.IMSI -> GtpIeValues.imsi(buf, offset, len, false);
            case GtpV2Ie.CAUSE -> len == 2 || len >= 6 ? null : GtpDrops.BAD_IE_LENGTH; // 6: with the offending IE
            case GtpV2Ie.RECOVERY -> len < 1 ? GtpDrops.BAD_RECOVERY : null;
            case GtpV2Ie.APN -> GtpIeValues.apn(buf, offset, len);
            case GtpV2Ie.EBI -> {
                int v = len < 1 ? -1 : buf.getByte(offset) & 0xFF;
                yield v < 5 || v > 15 ? GtpDrops.BAD_EBI : null;
            }
            case GtpV2Ie.MSISDN -> len > 8 ? GtpDrops.BAD_MSISDN : GtpIeValues.msisdnDigits(buf, offset, len);
            case GtpV2Ie.PAA -> paa(buf, offset, len);
            case GtpV2Ie.BEARER_TFT, TRAFFIC_AGGREGATE_DESCRIPTION ->
                    TrafficFlowTemplate.isWellFormed(buf, offset, len) ? null : GtpDrops.BAD_IE_LENGTH;
            case GtpV2Ie.RAT_TYPE -> len < 1 ? GtpDrops.BAD_RAT_TYPE : null;
            case GtpV2Ie.ULI -> len < 1 ? GtpDrops.BAD_IE_LENGTH : atLeast(len, 1 + uliParts(buf.getByte(offset) & 0xFF));
            case GtpV2Ie.F_TEID -> fteid(buf, offset, len);
            case GtpV2Ie.CHARGING_ID -> len != 4 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV2Ie.PDN_TYPE -> len != 1 ? GtpDrops.BAD_IE_LENGTH : null;
            case GtpV2Ie.APN_RESTRICTION, GtpV2Ie.SELECTION_MODE -> atLeast(len, 1);
            default -> atLeast(len, MIN_LENGTH[type]);
        };
    }

    private static DropReason atLeast(int len, int min) {
        return len < min ? GtpDrops.BAD_IE_LENGTH : null;
    }

    /** 29.274 8.22: the TEID, then the IPv4 and/or IPv6 address the V4/V6 flags announce; at least one. */
    static DropReason fteid(ByteBuf buf, int offset, int len) {
        if (len < 5) {
            return GtpDrops.BAD_FTEID;
        }
        int flags = buf.getByte(offset) & 0xFF;
        if ((flags & (FTEID_V4 | FTEID_V6)) == 0) {
            return GtpDrops.BAD_FTEID;
        }
        int need = 5 + ((flags & FTEID_V4) != 0 ? 4 : 0) + ((flags & FTEID_V6) != 0 ? 16 : 0);
        return len < need ? GtpDrops.BAD_FTEID : null;
    }

    /** 29.274 8.14: PDN type 1 IPv4 (4), 2 IPv6 (prefix length + 16), 3 both (1 + 16 + 4). */
    private static DropReason paa(ByteBuf buf, int offset, int len) {
        if (len < 1) {
            return GtpDrops.BAD_IE_LENGTH;
        }
        int need = switch (buf.getByte(offset) & 0x07) {
            case 1 -> 5;
            case 2 -> 18;
            case 3 -> 22;
            default -> 1;
        };
        return atLeast(len, need);
    }

    /** Octets of the ULI parts announced in its flags octet (29.274 figure 8.21-1, bits 1..8). */
    private static int uliParts(int flags) {
        int n = 0;
        for (int bit = 0; bit < 8; bit++) {
            if ((flags & (1 << bit)) != 0) {
                n += SIZES[bit];
            }
        }
        return n;
    }

    /** CGI, SAI, RAI, TAI, ECGI, LAI, macro eNB ID, extended macro eNB ID. */
    private static final int[] SIZES = {7, 7, 7, 5, 7, 5, 6, 6};
}
