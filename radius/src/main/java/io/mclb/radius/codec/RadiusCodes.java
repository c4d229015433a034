package io.mclb.radius.codec;

/**
 * RADIUS packet codes: an open set. Unknown codes are kept and forwarded as they are; the predicates
 * below say how the authenticator of each known code is formed (RFC 2865 section 3, RFC 2866 section 3,
 * RFC 5176 section 2.3 for CoA/Disconnect, RFC 5997 for Status-Server). Checked against
 * /work/shared/reference/radius.md section 3 and FreeRADIUS {@code src/lib/radius.c}.
 */
public final class RadiusCodes {
    public static final int ACCESS_REQUEST = 1;
    public static final int ACCESS_ACCEPT = 2;
    public static final int ACCESS_REJECT = 3;
    public static final int ACCOUNTING_REQUEST = 4;
    public static final int ACCOUNTING_RESPONSE = 5;
    public static final int ACCESS_CHALLENGE = 11;
    public static final int STATUS_SERVER = 12;
    public static final int STATUS_CLIENT = 13;
    public static final int DISCONNECT_REQUEST = 40;
    public static final int DISCONNECT_ACK = 41;
    public static final int DISCONNECT_NAK = 42;
    public static final int COA_REQUEST = 43;
    public static final int COA_ACK = 44;
    public static final int COA_NAK = 45;

    private RadiusCodes() {
    }

    /** Request Authenticator is 16 random octets (Access-Request, Status-Server). */
    public static boolean hasRandomAuthenticator(int code) {
        return code == ACCESS_REQUEST || code == STATUS_SERVER;
    }

    /** Request Authenticator is MD5(Code|Id|Length|16 zero octets|Attrs|Secret) (RFC 2866 section 3, RFC 5176 2.3). */
    public static boolean hasComputedRequestAuthenticator(int code) {
        return code == ACCOUNTING_REQUEST || code == DISCONNECT_REQUEST || code == COA_REQUEST;
    }

    /** A request of a known kind (either authenticator rule above). */
    public static boolean isRequest(int code) {
        return hasRandomAuthenticator(code) || hasComputedRequestAuthenticator(code);
    }

    /** A response of a known kind: signed with the Response Authenticator (RFC 2865 section 3). */
    public static boolean isResponse(int code) {
        return switch (code) {
            case ACCESS_ACCEPT, ACCESS_REJECT, ACCOUNTING_RESPONSE, ACCESS_CHALLENGE,
                 DISCONNECT_ACK, DISCONNECT_NAK, COA_ACK, COA_NAK -> true;
            default -> false;
        };
    }

    /**
     * Whether {@code response} is an answer the request code allows: Access-Accept, -Reject or
     * -Challenge to an Access-Request (RFC 2865 section 2), Accounting-Response to an
     * Accounting-Request (RFC 2866 section 4.2), Access-Accept or Accounting-Response to a
     * Status-Server (RFC 5997 section 3, by port), ACK or NAK to a Disconnect- or CoA-Request
     * (RFC 5176 section 2). What a proxy that cannot verify an answer can still check.
     */
    public static boolean answers(int request, int response) {
        return switch (request) {
            case ACCESS_REQUEST -> response == ACCESS_ACCEPT || response == ACCESS_REJECT || response == ACCESS_CHALLENGE;
            case ACCOUNTING_REQUEST -> response == ACCOUNTING_RESPONSE;
            case STATUS_SERVER -> response == ACCESS_ACCEPT || response == ACCOUNTING_RESPONSE;
            case DISCONNECT_REQUEST -> response == DISCONNECT_ACK || response == DISCONNECT_NAK;
            case COA_REQUEST -> response == COA_ACK || response == COA_NAK;
            default -> false;
        };
    }

    /** Name for logs and the admin API; unknown codes print as {@code Code-<n>}. Not for the data path. */
    public static String name(int code) {
        return switch (code) {
            case ACCESS_REQUEST -> "Access-Request";
            case ACCESS_ACCEPT -> "Access-Accept";
            case ACCESS_REJECT -> "Access-Reject";
            case ACCOUNTING_REQUEST -> "Accounting-Request";
            case ACCOUNTING_RESPONSE -> "Accounting-Response";
            case ACCESS_CHALLENGE -> "Access-Challenge";
            case STATUS_SERVER -> "Status-Server";
            case STATUS_CLIENT -> "Status-Client";
            case DISCONNECT_REQUEST -> "Disconnect-Request";
            case DISCONNECT_ACK -> "Disconnect-ACK";
            case DISCONNECT_NAK -> "Disconnect-NAK";
            case COA_REQUEST -> "CoA-Request";
            case COA_ACK -> "CoA-ACK";
            case COA_NAK -> "CoA-NAK";
            default -> "Code-" + code;
        };
    }
}
