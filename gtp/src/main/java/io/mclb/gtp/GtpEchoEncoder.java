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
        out.writeByte(0x1E);
        out.writeByte(GtpMessageType.V1_ECHO_RESPONSE);
        out.writeShort(2);
        out.writeShort(sequence);
        out.writeShort(0);
        out.writeByte(0xFF);
        out.writeMedium(0xFFFFFF);
        out.writeLong(0);
        out.writeByte(RECOVERY_V1);
        out.writeByte(restartCounter);
        return V0_LENGTH;
    }

    /** GTPv1 Echo Response: flags 0x32 (S = 1), type 2, length 6, TEID 0, sequence, N-PDU 0, next 0, Recovery (TV 14). */
    public static int writeV1(ByteBuf out, int sequence, int restartCounter) {
        out.writeByte(0x32);
        out.writeByte(GtpMessageType.V1_ECHO_RESPONSE);
        out.writeShort(6);
        out.writeInt(0);
        out.writeShort(sequence);
        out.writeByte(0);
        out.writeByte(0);
        out.writeByte(RECOVERY_V1);
        out.writeByte(restartCounter);
        return V1_LENGTH;
    }

    /** GTPv2 Echo Response: flags 0x40 (T = 0), type 2, length 9, 24-bit sequence, spare, Recovery IE (3, len 1, inst 0). */
    public static int writeV2(ByteBuf out, int sequence, int restartCounter) {
        out.writeByte(0x40);
        out.writeByte(GtpMessageType.V2_ECHO_RESPONSE);
        out.writeShort(9);
        out.writeMedium(sequence);
        out.writeByte(0);
        out.writeByte(RECOVERY_V2);
        out.writeShort(1);
        out.writeByte(0);
        out.writeByte(restartCounter);
        return V2_LENGTH;
    }
}
