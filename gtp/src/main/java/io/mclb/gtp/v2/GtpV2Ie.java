package io.mclb.gtp.v2;

/**
 * GTPv2 IE type code points (29.274 section 8.1; gtp.md section 4, numbers as in open5gs
 * {@code lib/gtp/v2/message.h}) and F-TEID interface types (29.274 table 8.22-1).
 */
public final class GtpV2Ie {
    public static final int IMSI = 1;
    public static final int CAUSE = 2;
    public static final int RECOVERY = 3;
    public static final int APN = 71;
    public static final int AMBR = 72;
    public static final int EBI = 73;
    public static final int IP_ADDRESS = 74;
    public static final int MEI = 75;
    public static final int MSISDN = 76;
    public static final int INDICATION = 77;
    public static final int PCO = 78;
    public static final int PAA = 79;
    public static final int BEARER_QOS = 80;
    public static final int RAT_TYPE = 82;
    public static final int SERVING_NETWORK = 83;
    public static final int BEARER_TFT = 84;
    public static final int ULI = 86;
    public static final int F_TEID = 87;
    public static final int BEARER_CONTEXT = 93;
    public static final int CHARGING_ID = 94;
    public static final int CHARGING_CHARACTERISTICS = 95;
    public static final int PDN_TYPE = 99;
    public static final int APN_RESTRICTION = 127;
    public static final int SELECTION_MODE = 128;
    public static final int FQ_CSID = 132;
    public static final int FQDN = 136;
    public static final int PRIVATE_EXTENSION = 255;

    public static final int IF_S1U_ENODEB_GTPU = 0;
    public static final int IF_S1U_SGW_GTPU = 1;
    public static final int IF_S5S8_SGW_GTPU = 4;
    public static final int IF_S5S8_PGW_GTPU = 5;
    public static final int IF_S5S8_SGW_GTPC = 6;
    public static final int IF_S5S8_PGW_GTPC = 7;
    public static final int IF_S11_MME_GTPC = 10;
    public static final int IF_S11S4_SGW_GTPC = 11;
    public static final int IF_S2B_EPDG_GTPC = 30;
    public static final int IF_S2B_PGW_GTPC = 32;
    public static final int IF_S2A_TWAN_GTPC = 35;
    public static final int IF_S2A_PGW_GTPC = 36;

    private GtpV2Ie() {
    }
}
