package io.mclb.gtp;

/**
 * Cause values and the balancer's classification of them (IOS SLB "GTP cause code inspection",
 * gtp.md sections 7 and 12). Causes are an open set: every octet value classifies, unknown ones by
 * their spec range.
 *
 * <p>Numbers checked against a second source: v1 204/211/212 against osmo-ggsn
 * {@code include/osmocom/gtp/gtp.h} ({@code GTPCAUSE_SYS_FAIL 204}, {@code GTPCAUSE_ADDR_OCCUPIED 211},
 * {@code GTPCAUSE_NO_MEMORY 212}; 199 is {@code GTPCAUSE_NO_RESOURCES} in the same list and in
 * the scapy example of peers.md section 9); v2 72/73/84/91 against Wireshark
 * {@code epan/dissectors/packet-gtpv2.c} cause table ("System failure", "No resources available",
 * "All dynamic addresses are occupied", "No memory available").
 */
public final class GtpCause {
    /** What the balancer does with a response carrying the cause. */
    public enum Action {
        /** Accept class (v1 128-191, v2 16-63): establish the session against the real. */
        ACCEPTED,
        /** Node-health reject (v1 199/204/211/212, v2 72/73/84/91): fail the real, reassign, hide the response. */
        NODE_FAILURE,
        /** Any other reject (v1 192-255, v2 64-239): a subscriber/request problem, forward it. */
        REJECTED,
        /** A value from the request range (v1 0-127, v2 0-15 and 240-255): forward. */
        OTHER
    }

    public static final int V1_REQUEST_ACCEPTED = 128;
    public static final int V1_NEW_PDP_TYPE_NETWORK_PREFERENCE = 129;
    public static final int V1_NEW_PDP_TYPE_SINGLE_ADDRESS_BEARER = 130;
    public static final int V1_NON_EXISTENT = 192;
    public static final int V1_INVALID_MESSAGE_FORMAT = 193;
    public static final int V1_VERSION_NOT_SUPPORTED = 198;
    public static final int V1_NO_RESOURCES_AVAILABLE = 199;
    public static final int V1_MANDATORY_IE_MISSING = 202;
    public static final int V1_SYSTEM_FAILURE = 204;
    public static final int V1_CONTEXT_NOT_FOUND = 210;
    public static final int V1_ALL_DYNAMIC_PDP_ADDRESSES_OCCUPIED = 211;
    public static final int V1_NO_MEMORY_AVAILABLE = 212;
    public static final int V1_MISSING_OR_UNKNOWN_APN = 219;
    public static final int V1_APN_CONGESTION = 229;

    public static final int V2_REQUEST_ACCEPTED = 16;
    public static final int V2_REQUEST_ACCEPTED_PARTIALLY = 17;
    public static final int V2_CONTEXT_NOT_FOUND = 64;
    public static final int V2_INVALID_MESSAGE_FORMAT = 65;
    public static final int V2_MANDATORY_IE_MISSING = 70;
    public static final int V2_SYSTEM_FAILURE = 72;
    public static final int V2_NO_RESOURCES_AVAILABLE = 73;
    public static final int V2_MISSING_OR_UNKNOWN_APN = 78;
    public static final int V2_ALL_DYNAMIC_ADDRESSES_OCCUPIED = 84;
    public static final int V2_NO_MEMORY_AVAILABLE = 91;
    public static final int V2_APN_CONGESTION = 113;
    public static final int V2_GTP_C_ENTITY_CONGESTION = 120;

    private GtpCause() {
    }

    /** Classifies a v0/v1 cause octet (v0 shares the v1 numbering, gtp.md section 7). */
    public static Action classifyV1(int cause) {
        int c = cause & 0xFF;
        switch (c) {
            case V1_NO_RESOURCES_AVAILABLE:
            case V1_SYSTEM_FAILURE:
            case V1_ALL_DYNAMIC_PDP_ADDRESSES_OCCUPIED:
            case V1_NO_MEMORY_AVAILABLE:
                return Action.NODE_FAILURE;
            default:
                if (c >= 192) {
                    return Action.REJECTED;
                }
                return c >= 128 ? Action.ACCEPTED : Action.OTHER;
        }
    }

    /** Classifies a v2 cause octet (29.274 table 8.4-1 ranges). */
    public static Action classifyV2(int cause) {
        int c = cause & 0xFF;
        switch (c) {
            case V2_SYSTEM_FAILURE:
            case V2_NO_RESOURCES_AVAILABLE:
            case V2_ALL_DYNAMIC_ADDRESSES_OCCUPIED:
            case V2_NO_MEMORY_AVAILABLE:
                return Action.NODE_FAILURE;
            default:
                if (c >= 16 && c <= 63) {
                    return Action.ACCEPTED;
                }
                return c >= 64 && c <= 239 ? Action.REJECTED : Action.OTHER;
        }
    }
}
