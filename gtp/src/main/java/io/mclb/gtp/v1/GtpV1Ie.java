package io.mclb.gtp.v1;

/**
 * GTPv0/v1 IE type code points and the fixed value lengths of the TV types (type &lt; 128).
 *
 * <p>TV/TLV rule (29.060 section 7.7.0, gtp.md section 3): bit 8 of the type octet 0 means TV with a
 * length fixed by the type and no length field; 1 means TLV with a 2-octet length counting the
 * value only. Exception: 141 Extension Header Type List has a 1-octet length.
 *
 * <p>The TV table is gtp.md section 3, checked against osmo-ggsn {@code gtp/gtpie.h} (comments give
 * the lengths: 1 Cause 1, 2 IMSI 8, 3 RAI 6, 4 TLLI 4, 5 P-TMSI 4, 8 Reordering 1, 9 Auth Triplet 28,
 * 11 MAP Cause 1, 12 P-TMSI Sig 3, 13 MS Validated 1, 14 Recovery 1, 15 Selection Mode 1,
 * 16/17 TEID 4 (v0 Flow Label 2), 18 TEID Data II 5, 19 1, 20 NSAPI 1, 21 RANAP Cause 1, 23/24 1,
 * 25 PFI 2, 26 Charging Characteristics 2, 27/28 Trace 2, 29 MS Not Reachable 1, 127 Charging ID 4).
 * Differences: RAB Context 22 is 9 here (29.060 R99+, Wireshark, gtp-guard) where osmo-ggsn's
 * comment says 7 (older code); v0 QoS Profile 6 = 3 and v0 Flow Label Data II 18 = 3 come from a
 * 09.60-based decoder (gtp.md sources) only.
 */
public final class GtpV1Ie {
    public static final int CAUSE = 1;
    public static final int IMSI = 2;
    public static final int RAI = 3;
    public static final int TLLI = 4;
    public static final int P_TMSI = 5;
    public static final int QOS_PROFILE_V0 = 6;
    public static final int REORDERING_REQUIRED = 8;
    public static final int AUTHENTICATION_TRIPLET = 9;
    public static final int MAP_CAUSE = 11;
    public static final int P_TMSI_SIGNATURE = 12;
    public static final int MS_VALIDATED = 13;
    public static final int RECOVERY = 14;
    public static final int SELECTION_MODE = 15;
    /** v1 TEID Data I; v0 Flow Label Data I. */
    public static final int TEID_DATA_I = 16;
    /** v1 TEID Control Plane; v0 Flow Label Signalling. */
    public static final int TEID_CONTROL_PLANE = 17;
    public static final int TEID_DATA_II = 18;
    public static final int TEARDOWN_IND = 19;
    public static final int NSAPI = 20;
    public static final int RANAP_CAUSE = 21;
    public static final int RAB_CONTEXT = 22;
    public static final int RADIO_PRIORITY_SMS = 23;
    public static final int RADIO_PRIORITY = 24;
    public static final int PACKET_FLOW_ID = 25;
    public static final int CHARGING_CHARACTERISTICS = 26;
    public static final int TRACE_REFERENCE = 27;
    public static final int TRACE_TYPE = 28;
    public static final int MS_NOT_REACHABLE_REASON = 29;
    public static final int CHARGING_ID = 127;
    public static final int END_USER_ADDRESS = 128;
    public static final int MM_CONTEXT = 129;
    public static final int PDP_CONTEXT = 130;
    public static final int APN = 131;
    public static final int PCO = 132;
    public static final int GSN_ADDRESS = 133;
    public static final int MSISDN = 134;
    public static final int QOS_PROFILE = 135;
    public static final int TFT = 137;
    public static final int EXTENSION_HEADER_TYPE_LIST = 141;
    public static final int COMMON_FLAGS = 148;
    public static final int RAT_TYPE = 151;
    public static final int USER_LOCATION_INFO = 152;
    public static final int MS_TIME_ZONE = 153;
    public static final int IMEI_SV = 154;
    public static final int CHARGING_GATEWAY_ADDRESS = 251;
    public static final int PRIVATE_EXTENSION = 255;

    /** Value length of a TV type, or -1 when unknown; index = type (0..127). */
    private static final byte[] V1_TV = new byte[128];
    private static final byte[] V0_TV = new byte[128];

    static {
        java.util.Arrays.fill(V1_TV, (byte) -1);
        int[][] common = {
            {CAUSE, 1}, {IMSI, 8}, {RAI, 6}, {TLLI, 4}, {P_TMSI, 4}, {REORDERING_REQUIRED, 1},
            {AUTHENTICATION_TRIPLET, 28}, {MAP_CAUSE, 1}, {P_TMSI_SIGNATURE, 3}, {MS_VALIDATED, 1},
            {RECOVERY, 1}, {SELECTION_MODE, 1}, {TEID_DATA_I, 4}, {TEID_CONTROL_PLANE, 4},
            {TEID_DATA_II, 5}, {TEARDOWN_IND, 1}, {NSAPI, 1}, {RANAP_CAUSE, 1}, {RAB_CONTEXT, 9},
            {RADIO_PRIORITY_SMS, 1}, {RADIO_PRIORITY, 1}, {PACKET_FLOW_ID, 2},
            {CHARGING_CHARACTERISTICS, 2}, {TRACE_REFERENCE, 2}, {TRACE_TYPE, 2},
            {MS_NOT_REACHABLE_REASON, 1}, {CHARGING_ID, 4},
        };
        for (int[] e : common) {
            V1_TV[e[0]] = (byte) e[1];
        }
        System.arraycopy(V1_TV, 0, V0_TV, 0, 128);
        V0_TV[QOS_PROFILE_V0] = 3;
        V0_TV[TEID_DATA_I] = 2;        // Flow Label Data I
        V0_TV[TEID_CONTROL_PLANE] = 2; // Flow Label Signalling
        V0_TV[TEID_DATA_II] = 3;       // Flow Label Data II (NSAPI + label)
    }

    private GtpV1Ie() {
    }

    /** Whether {@code type} is TV (no length field). */
    public static boolean isTv(int type) {
        return (type & 0x80) == 0;
    }

    /** Fixed value length of TV {@code type} for GTPv1, or -1 when this decoder does not know it. */
    public static int fixedLengthV1(int type) {
        return type >= 0 && type < 128 ? V1_TV[type] : -1;
    }

    /** Fixed value length of TV {@code type} for GTPv0 (16/17 are 2-octet flow labels, 18 is 3), or -1. */
    public static int fixedLengthV0(int type) {
        return type >= 0 && type < 128 ? V0_TV[type] : -1;
    }
}
