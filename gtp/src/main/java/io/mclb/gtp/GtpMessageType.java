package io.mclb.gtp;

/**
 * Open enum of GTP message types (Netty {@code DnsRecordType} style): one interned instance per
 * (family, octet value), so {@link #v1(int)} / {@link #v2(int)} never allocate and unknown values
 * stay representable ({@code UNKNOWN_<n>}, kind {@link Kind#OTHER}) and are forwarded unchanged.
 *
 * <p>Family V1 covers GTPv0 and GTPv1 (one numbering, gtp.md section 5; 22-25 differ in name only,
 * v0 Create/Delete AA PDP vs v1 Initiate PDP Context Activation). Family V2 is 29.274 (gtp.md
 * section 6). The numeric values are gtp.md's (its sources: Wireshark packet-gtp.c, open5gs
 * lib/gtp/v2/message.h) and were not re-read here; the v2 initial/triggered split was checked
 * against open5gs {@code lib/gtp/xact.c} (its INITIAL_STAGE list: requests, commands,
 * notifications; Create/Update/Delete Bearer Request initial unless command-triggered).
 *
 * <p>{@link #isInitial()}: the message opens a transaction (it is sent with a fresh sequence number
 * and answered by the paired response). Requests, v2 Commands and v2 Notifications are initial;
 * responses, acks and failure indications are triggered. A v2 request triggered by a Command copies
 * the command's sequence number with the MSB (0x800000) set; see {@code GtpV2Message#isCommandTriggered}.
 */
public final class GtpMessageType {
    /** Whether the type is the request or the response half of a pair. */
    public enum Kind { REQUEST, RESPONSE, OTHER }

    private static final GtpMessageType[] V1 = new GtpMessageType[256];
    private static final GtpMessageType[] V2 = new GtpMessageType[256];

    // v0 / v1 (29.060 table 1; GSM 09.60)
    public static final int V1_ECHO_REQUEST = 1;
    public static final int V1_ECHO_RESPONSE = 2;
    public static final int V1_VERSION_NOT_SUPPORTED = 3;
    public static final int V1_NODE_ALIVE_REQUEST = 4;
    public static final int V1_NODE_ALIVE_RESPONSE = 5;
    public static final int V1_REDIRECTION_REQUEST = 6;
    public static final int V1_REDIRECTION_RESPONSE = 7;
    public static final int V1_CREATE_PDP_CONTEXT_REQUEST = 16;
    public static final int V1_CREATE_PDP_CONTEXT_RESPONSE = 17;
    public static final int V1_UPDATE_PDP_CONTEXT_REQUEST = 18;
    public static final int V1_UPDATE_PDP_CONTEXT_RESPONSE = 19;
    public static final int V1_DELETE_PDP_CONTEXT_REQUEST = 20;
    public static final int V1_DELETE_PDP_CONTEXT_RESPONSE = 21;
    /** v0: Create AA PDP Context Request; v1: Initiate PDP Context Activation Request. */
    public static final int V1_INITIATE_PDP_CONTEXT_ACTIVATION_REQUEST = 22;
    public static final int V1_INITIATE_PDP_CONTEXT_ACTIVATION_RESPONSE = 23;
    /** v0 only: Delete AA PDP Context Request. */
    public static final int V0_DELETE_AA_PDP_CONTEXT_REQUEST = 24;
    public static final int V0_DELETE_AA_PDP_CONTEXT_RESPONSE = 25;
    public static final int V1_ERROR_INDICATION = 26;
    public static final int V1_PDU_NOTIFICATION_REQUEST = 27;
    public static final int V1_PDU_NOTIFICATION_RESPONSE = 28;
    public static final int V1_PDU_NOTIFICATION_REJECT_REQUEST = 29;
    public static final int V1_PDU_NOTIFICATION_REJECT_RESPONSE = 30;
    public static final int V1_SUPPORTED_EXTENSION_HEADERS_NOTIFICATION = 31;
    public static final int V1_DATA_RECORD_TRANSFER_REQUEST = 240;
    public static final int V1_DATA_RECORD_TRANSFER_RESPONSE = 241;
    public static final int V1_END_MARKER = 254;
    public static final int V1_T_PDU = 255;

    // v2 (29.274 table 6.1-1)
    public static final int V2_ECHO_REQUEST = 1;
    public static final int V2_ECHO_RESPONSE = 2;
    public static final int V2_VERSION_NOT_SUPPORTED = 3;
    public static final int V2_CREATE_SESSION_REQUEST = 32;
    public static final int V2_CREATE_SESSION_RESPONSE = 33;
    public static final int V2_MODIFY_BEARER_REQUEST = 34;
    public static final int V2_MODIFY_BEARER_RESPONSE = 35;
    public static final int V2_DELETE_SESSION_REQUEST = 36;
    public static final int V2_DELETE_SESSION_RESPONSE = 37;
    public static final int V2_CHANGE_NOTIFICATION_REQUEST = 38;
    public static final int V2_CHANGE_NOTIFICATION_RESPONSE = 39;
    public static final int V2_MODIFY_BEARER_COMMAND = 64;
    public static final int V2_MODIFY_BEARER_FAILURE_INDICATION = 65;
    public static final int V2_DELETE_BEARER_COMMAND = 66;
    public static final int V2_DELETE_BEARER_FAILURE_INDICATION = 67;
    public static final int V2_BEARER_RESOURCE_COMMAND = 68;
    public static final int V2_BEARER_RESOURCE_FAILURE_INDICATION = 69;
    public static final int V2_DOWNLINK_DATA_NOTIFICATION_FAILURE_INDICATION = 70;
    public static final int V2_CREATE_BEARER_REQUEST = 95;
    public static final int V2_CREATE_BEARER_RESPONSE = 96;
    public static final int V2_UPDATE_BEARER_REQUEST = 97;
    public static final int V2_UPDATE_BEARER_RESPONSE = 98;
    public static final int V2_DELETE_BEARER_REQUEST = 99;
    public static final int V2_DELETE_BEARER_RESPONSE = 100;
    public static final int V2_DELETE_PDN_CONNECTION_SET_REQUEST = 101;
    public static final int V2_DELETE_PDN_CONNECTION_SET_RESPONSE = 102;
    public static final int V2_SUSPEND_NOTIFICATION = 162;
    public static final int V2_SUSPEND_ACKNOWLEDGE = 163;
    public static final int V2_RESUME_NOTIFICATION = 164;
    public static final int V2_RESUME_ACKNOWLEDGE = 165;
    public static final int V2_RELEASE_ACCESS_BEARERS_REQUEST = 170;
    public static final int V2_RELEASE_ACCESS_BEARERS_RESPONSE = 171;
    public static final int V2_DOWNLINK_DATA_NOTIFICATION = 176;
    public static final int V2_DOWNLINK_DATA_NOTIFICATION_ACKNOWLEDGE = 177;
    public static final int V2_PGW_RESTART_NOTIFICATION = 179;
    public static final int V2_PGW_RESTART_NOTIFICATION_ACKNOWLEDGE = 180;
    public static final int V2_UPDATE_PDN_CONNECTION_SET_REQUEST = 200;
    public static final int V2_UPDATE_PDN_CONNECTION_SET_RESPONSE = 201;
    public static final int V2_MODIFY_ACCESS_BEARERS_REQUEST = 211;
    public static final int V2_MODIFY_ACCESS_BEARERS_RESPONSE = 212;

    static {
        pair(V1, 1, "EchoRequest", "EchoResponse");
        V1[3] = new GtpMessageType(1, 3, "VersionNotSupported", Kind.OTHER, false);
        pair(V1, 4, "NodeAliveRequest", "NodeAliveResponse");
        pair(V1, 6, "RedirectionRequest", "RedirectionResponse");
        pair(V1, 16, "CreatePdpContextRequest", "CreatePdpContextResponse");
        pair(V1, 18, "UpdatePdpContextRequest", "UpdatePdpContextResponse");
        pair(V1, 20, "DeletePdpContextRequest", "DeletePdpContextResponse");
        pair(V1, 22, "InitiatePdpContextActivationRequest", "InitiatePdpContextActivationResponse");
        pair(V1, 24, "DeleteAaPdpContextRequest", "DeleteAaPdpContextResponse");
        V1[26] = new GtpMessageType(1, 26, "ErrorIndication", Kind.OTHER, true);
        pair(V1, 27, "PduNotificationRequest", "PduNotificationResponse");
        pair(V1, 29, "PduNotificationRejectRequest", "PduNotificationRejectResponse");
        V1[31] = new GtpMessageType(1, 31, "SupportedExtensionHeadersNotification", Kind.OTHER, false);
        pair(V1, 32, "SendRouteingInfoForGprsRequest", "SendRouteingInfoForGprsResponse");
        pair(V1, 34, "FailureReportRequest", "FailureReportResponse");
        pair(V1, 36, "NoteMsGprsPresentRequest", "NoteMsGprsPresentResponse");
        pair(V1, 48, "IdentificationRequest", "IdentificationResponse");
        pair(V1, 50, "SgsnContextRequest", "SgsnContextResponse");
        V1[52] = new GtpMessageType(1, 52, "SgsnContextAcknowledge", Kind.RESPONSE, false);
        pair(V1, 240, "DataRecordTransferRequest", "DataRecordTransferResponse");
        V1[254] = new GtpMessageType(1, 254, "EndMarker", Kind.OTHER, false);
        V1[255] = new GtpMessageType(1, 255, "TPdu", Kind.OTHER, false);

        pair(V2, 1, "EchoRequest", "EchoResponse");
        V2[3] = new GtpMessageType(2, 3, "VersionNotSupportedIndication", Kind.OTHER, false);
        pair(V2, 32, "CreateSessionRequest", "CreateSessionResponse");
        pair(V2, 34, "ModifyBearerRequest", "ModifyBearerResponse");
        pair(V2, 36, "DeleteSessionRequest", "DeleteSessionResponse");
        pair(V2, 38, "ChangeNotificationRequest", "ChangeNotificationResponse");
        pair(V2, 64, "ModifyBearerCommand", "ModifyBearerFailureIndication");
        pair(V2, 66, "DeleteBearerCommand", "DeleteBearerFailureIndication");
        pair(V2, 68, "BearerResourceCommand", "BearerResourceFailureIndication");
        V2[70] = new GtpMessageType(2, 70, "DownlinkDataNotificationFailureIndication", Kind.RESPONSE, false);
        pair(V2, 95, "CreateBearerRequest", "CreateBearerResponse");
        pair(V2, 97, "UpdateBearerRequest", "UpdateBearerResponse");
        pair(V2, 99, "DeleteBearerRequest", "DeleteBearerResponse");
        pair(V2, 101, "DeletePdnConnectionSetRequest", "DeletePdnConnectionSetResponse");
        pair(V2, 162, "SuspendNotification", "SuspendAcknowledge");
        pair(V2, 164, "ResumeNotification", "ResumeAcknowledge");
        pair(V2, 170, "ReleaseAccessBearersRequest", "ReleaseAccessBearersResponse");
        pair(V2, 176, "DownlinkDataNotification", "DownlinkDataNotificationAcknowledge");
        pair(V2, 179, "PgwRestartNotification", "PgwRestartNotificationAcknowledge");
        pair(V2, 200, "UpdatePdnConnectionSetRequest", "UpdatePdnConnectionSetResponse");
        pair(V2, 211, "ModifyAccessBearersRequest", "ModifyAccessBearersResponse");
        for (int i = 0; i < 256; i++) {
            if (V1[i] == null) {
                V1[i] = new GtpMessageType(1, i, "UNKNOWN_" + i, Kind.OTHER, false);
            }
            if (V2[i] == null) {
                V2[i] = new GtpMessageType(2, i, "UNKNOWN_" + i, Kind.OTHER, false);
            }
        }
    }

    private final int family;
    private final int code;
    private final String name;
    private final Kind kind;
    private final boolean initial;

    private GtpMessageType(int family, int code, String name, Kind kind, boolean initial) {
        this.family = family;
        this.code = code;
        this.name = name;
        this.kind = kind;
        this.initial = initial;
    }

    private static void pair(GtpMessageType[] table, int request, String reqName, String respName) {
        int family = table == V1 ? 1 : 2;
        table[request] = new GtpMessageType(family, request, reqName, Kind.REQUEST, true);
        table[request + 1] = new GtpMessageType(family, request + 1, respName, Kind.RESPONSE, false);
    }

    /** The v0/v1 type for octet value {@code code} (masked to 8 bits); never null, never allocates. */
    public static GtpMessageType v1(int code) {
        return V1[code & 0xFF];
    }

    /** The v2 type for octet value {@code code} (masked to 8 bits); never null, never allocates. */
    public static GtpMessageType v2(int code) {
        return V2[code & 0xFF];
    }

    /** 1 for the v0/v1 numbering, 2 for v2. */
    public int family() {
        return family;
    }

    public int code() {
        return code;
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isRequest() {
        return kind == Kind.REQUEST;
    }

    public boolean isResponse() {
        return kind == Kind.RESPONSE;
    }

    /** Opens a transaction (fresh sequence number); see the class comment. */
    public boolean isInitial() {
        return initial;
    }

    /** Not in our table: forward unchanged, never drop for this alone. */
    public boolean isKnown() {
        return !name.startsWith("UNKNOWN_");
    }

    @Override
    public String toString() {
        return name + "(" + code + ")";
    }
}
