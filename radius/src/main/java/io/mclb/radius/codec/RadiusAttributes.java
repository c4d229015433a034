package io.mclb.radius.codec;

/**
 * Attribute type numbers and vendor ids the balancer reads or rewrites (an open set: every other
 * attribute is forwarded byte for byte). Numbers from RFC 2865 section 5, RFC 2866 section 5,
 * RFC 2868, RFC 2869, RFC 3162, RFC 2548 (Microsoft), 3GPP TS 29.061, as listed in
 * /work/shared/reference/radius.md sections 4 and 7 (FreeRADIUS dictionaries).
 */
public final class RadiusAttributes {
    public static final int USER_NAME = 1;
    public static final int USER_PASSWORD = 2;
    public static final int NAS_IP_ADDRESS = 4;
    public static final int NAS_PORT = 5;
    public static final int SERVICE_TYPE = 6;
    public static final int FRAMED_PROTOCOL = 7;
    public static final int FRAMED_IP_ADDRESS = 8;
    public static final int REPLY_MESSAGE = 18;
    public static final int STATE = 24;
    public static final int CLASS = 25;
    public static final int VENDOR_SPECIFIC = 26;
    public static final int SESSION_TIMEOUT = 27;
    public static final int CALLED_STATION_ID = 30;
    public static final int CALLING_STATION_ID = 31;
    public static final int NAS_IDENTIFIER = 32;
    public static final int PROXY_STATE = 33;
    public static final int ACCT_STATUS_TYPE = 40;
    public static final int ACCT_DELAY_TIME = 41;
    public static final int ACCT_SESSION_ID = 44;
    public static final int ACCT_MULTI_SESSION_ID = 50;
    public static final int NAS_PORT_TYPE = 61;
    /** RFC 2868 section 3.5: Tag, 2-octet Salt, salted ciphertext. */
    public static final int TUNNEL_PASSWORD = 69;
    public static final int EAP_MESSAGE = 79;
    public static final int MESSAGE_AUTHENTICATOR = 80;
    public static final int FRAMED_IPV6_PREFIX = 97;

    /** Acct-Status-Type values (RFC 2866 section 5.1). */
    public static final int ACCT_STATUS_START = 1;
    public static final int ACCT_STATUS_STOP = 2;
    public static final int ACCT_STATUS_INTERIM_UPDATE = 3;
    public static final int ACCT_STATUS_ACCOUNTING_ON = 7;
    public static final int ACCT_STATUS_ACCOUNTING_OFF = 8;

    public static final int VENDOR_CISCO = 9;
    public static final int CISCO_AVPAIR = 1;
    public static final int VENDOR_MICROSOFT = 311;
    /** RFC 2548 section 2.4.2/2.4.3: salted like Tunnel-Password but without the Tag octet. */
    public static final int MS_MPPE_SEND_KEY = 16;
    public static final int MS_MPPE_RECV_KEY = 17;
    public static final int VENDOR_3GPP2 = 5535;
    public static final int VENDOR_3GPP = 10415;
    public static final int TGPP_IMSI = 1;
    public static final int TGPP_CHARGING_ID = 2;
    public static final int TGPP_SGSN_ADDRESS = 6;
    public static final int TGPP_GGSN_ADDRESS = 7;
    public static final int TGPP_IMSI_MCC_MNC = 8;
    public static final int TGPP_RAT_TYPE = 21;
    /** WiMAX uses a 3-octet sub-attribute header (type, length, continuation); see {@link RadiusPacket#findVendorAttribute}. */
    public static final int VENDOR_WIMAX = 24757;

    private RadiusAttributes() {
    }
}
