package io.mclb.gtp;

import io.netty.buffer.ByteBuf;

/**
 * Writes the Echo Responses mclb answers itself (DESIGN: LOCAL(answer)), each carrying the
 * request's sequence number and a Recovery IE with mclb's restart counter (gtp.md section 11;
 * osmo-ggsn's {@code gtp_echo_resp} sends exactly Recovery for v0/v1).
 * Every method appends at the writer index and returns the octets written; the caller provides a
 * buffer with room ({@link #MAX_LENGTH}), nothing is allocated.
 */
public final class GtpEchoEncoder {
    /** v0: 20 header + 2 Recovery. */
    public static final int V0_LENGTH = 22;
    /** v1: 8 header + 4 sequence block + 2 Recovery. */
    public static final int V1_LENGTH = 14;
    /** v2: 8 header (T = 0) + 5 Recovery IE. */
    public static final int V2_LENGTH = 13;
    public static final int MAX_LENGTH = V0_LENGTH;

    private static final int RECOVERY_V1 = 14;
    private static final int RECOVERY_V2 = 3;

    private GtpEchoEncoder() {
    }

    /**
     * GTPv0 Echo Response: flags 0x1E, type 2, length 2, the request's sequence, flow label 0,
     * SNDCP 0xFF, spare 0xFFFFFF, TID 0, then Recovery (TV 14).
     */
    public static int writeV0(ByteBuf out, int sequence, int restartCounter) {
        commonHeader(out, GtpHeader.Layout.V0, 0x1E, V0_LENGTH);
        out.writeShort(sequence).writeShort(0).writeByte(0xFF).writeMedium(0xFFFFFF).writeLong(0);
        recoveryTv(out, restartCounter);
        return V0_LENGTH;
    }

    /** GTPv1 Echo Response: flags 0x32 (S = 1), type 2, length 6, TEID 0, sequence, N-PDU 0, next 0, Recovery (TV 14). */
    public static int writeV1(ByteBuf out, int sequence, int restartCounter) {
        commonHeader(out, GtpHeader.Layout.V1, 0x32, V1_LENGTH);
        out.writeInt(0).writeShort(sequence).writeByte(0).writeByte(0);
        recoveryTv(out, restartCounter);
        return V1_LENGTH;
    }

    /** GTPv2 Echo Response: flags 0x40 (T = 0), type 2, length 9, 24-bit sequence, spare, Recovery IE (3, len 1, inst 0). */
    public static int writeV2(ByteBuf out, int sequence, int restartCounter) {
        commonHeader(out, GtpHeader.Layout.V2, 0x40, V2_LENGTH);
        out.writeMedium(sequence).writeByte(0);
        out.writeByte(RECOVERY_V2).writeShort(1).writeByte(0).writeByte(restartCounter);
        return V2_LENGTH;
    }

    /**
     * The four octets every version starts with; the length field is derived from the version's
     * length origin so it cannot disagree with the octets the caller goes on to write.
     */
    private static void commonHeader(ByteBuf out, GtpHeader.Layout layout, int flags, int messageLength) {
        int type = layout == GtpHeader.Layout.V2 ? GtpMessageType.V2_ECHO_RESPONSE : GtpMessageType.V1_ECHO_RESPONSE;
        out.writeByte(flags).writeByte(type).writeShort(messageLength - layout.lengthOrigin);
    }

    /** The Recovery IE in the TV form v0 and v1 share: type 14, one octet. */
    private static void recoveryTv(ByteBuf out, int restartCounter) {
        out.writeByte(RECOVERY_V1).writeByte(restartCounter);
    }
}
