package io.mclb.feedback.dfp;

/**
 * DFP code points and sizes (reference/dfp-kalap.md sections 2-4; draft-eck-dfp-01; checked
 * against Cisco's BSD reference implementation {@code wire.h} and the veithen/dfpagent Java agent).
 * All fields are in network byte order.
 *
 * <pre>
 *  message  0       1       2       3       4 ... 7
 *          +-------+-------+---------------+---------------------------+
 *          |version|reservd| message type  | length (incl. this header)| TLV...
 *          +-------+-------+---------------+---------------------------+
 *  TLV     | type (2)      | length (2, incl. this 4-octet header) | value...
 * </pre>
 *
 * Type codes are open: an unknown message type or TLV is skipped by its length, never refused.
 */
public final class DfpWire {
    private DfpWire() {
    }

    public static final int VERSION = 1;
    public static final int HEADER_LENGTH = 8;
    public static final int TLV_HEADER_LENGTH = 4;
    /**
     * The longest message accepted. Draft-01 sets no limit; a Load TLV's 16-bit length allows 8,190
     * hosts, so 1 MiB holds far more groups than any farm has, and bounds what one peer can make us buffer.
     */
    public static final int MAX_MESSAGE_LENGTH = 1 << 20;

    // message types (draft section 5; 0x0500-0x05FF customer private use)
    public static final int PREFERENCE_INFORMATION = 0x0101;
    public static final int SERVER_STATE = 0x0201;
    public static final int DFP_PARAMETERS = 0x0301;
    public static final int BIND_ID_REQUEST = 0x0401;
    public static final int BIND_ID_REPORT = 0x0402;
    /** Draft-01 printed 0x0402 for both Report and Change Notify; implementations use 0x0403. */
    public static final int BIND_ID_CHANGE_NOTIFY = 0x0403;

    // TLV types (0x0200-0x02FF reserved)
    public static final int TLV_SECURITY = 0x0001;
    public static final int TLV_LOAD = 0x0002;
    public static final int TLV_KEEP_ALIVE = 0x0101;
    public static final int TLV_BIND_ID_TABLE = 0x0301;

    /** Security TLV: header, algorithm (4), MD5 key id (4), MD5 digest (16). */
    public static final int SECURITY_TLV_LENGTH = 28;
    public static final int SECURITY_ALGORITHM_MD5 = 1;
    /** Offset of the 16 digest octets inside the Security TLV. */
    public static final int SECURITY_DIGEST_OFFSET = 12;
    /** Load TLV: header, port (2), protocol (1), flags (1), host count (2), reserved (2), then 8 per host. */
    public static final int LOAD_TLV_FIXED = 12;
    public static final int LOAD_HOST_LENGTH = 8;
    /** Keep-Alive TLV: header and the interval in seconds (4). */
    public static final int KEEP_ALIVE_TLV_LENGTH = 8;
    /** BindID Table TLV: header, server IPv4 (4), port (2), protocol (1), reserved (1), entries (2), reserved (2). */
    public static final int BIND_TABLE_FIXED = 16;
    /** One bind entry: bind ID (2), reserved (2), client network (4), client netmask (4). */
    public static final int BIND_ENTRY_LENGTH = 12;

    /** Load TLV protocol 0 = any protocol (draft); other values are IP protocol numbers (UDP 17). */
    public static final int PROTOCOL_ANY = 0;
    public static final int PROTOCOL_UDP = 17;
    public static final int PROTOCOL_TCP = 6;

    /** A name for logs and views: the draft's name, or the code in hex. */
    public static String messageName(int type) {
        return switch (type) {
            case PREFERENCE_INFORMATION -> "preference-information";
            case SERVER_STATE -> "server-state";
            case DFP_PARAMETERS -> "dfp-parameters";
            case BIND_ID_REQUEST -> "bindid-request";
            case BIND_ID_REPORT -> "bindid-report";
            case BIND_ID_CHANGE_NOTIFY -> "bindid-change-notify";
            default -> String.format("0x%04x", type);
        };
    }
}
