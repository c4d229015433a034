package io.mclb.perf.gtp.sim;

import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Ie;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Ie;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.ByteBuf;

/**
 * Writes the responses a GGSN/PGW sends (the gtp module only encodes Echo). Each method appends one
 * complete message at the writer index and patches its length field. IE sets follow osmo-ggsn's
 * {@code gtp_create_pdp_resp} (v0/v1, IEs in ascending type order) and open5gs' S5/S8 Create
 * Session Response (v2, gtp.md section 10); accepted creates carry the full set, rejects only Cause
 * and Recovery. Addresses are 4 (IPv4) or 16 (IPv6) octets. Nothing is allocated.
 */
public final class GtpResponseEncoder {
    /** Upper bound of any message written here. */
    public static final int MAX_LENGTH = 160;
    /** R99 QoS Profile (IE 135): ARP 1 + osmo-ggsn's default 3-octet R97 profile. */
    private static final int QOS_R99 = 0x010b921f;
    /** v0 QoS Profile (TV 6, 3 octets): osmo-ggsn's default R97 profile. */
    private static final int QOS_V0 = 0x0b921f;

    private GtpResponseEncoder() {
    }

    /** Parameters of an accepted create; reject responses ignore them. One mutable instance per loop. */
    public static final class Grant {
        /** TEID-C (v1/v2) or Flow Label Signalling (v0, low 16 bits) allocated for the session. */
        public int controlId;
        /** TEID-data (v1/v2) or Flow Label Data I (v0, low 16 bits). */
        public int dataId;
        public int chargingId;
        /** End User Address / PAA, IPv4. */
        public int ueIpv4;
        /** v2: the EPS bearer id to answer with. */
        public int ebi;
        /** The simulator's own address for GSN Address / F-TEID (4 or 16 octets). */
        public byte[] ownAddress;
    }

    /** v1 Create PDP Context Response; header TEID = the SGSN's TEID-C from the request. */
    public static int writeV1Create(ByteBuf out, int sequence, int peerTeidC, int cause, int recovery, Grant g) {
        int start = out.writerIndex();
        v1Header(out, GtpMessageType.V1_CREATE_PDP_CONTEXT_RESPONSE, peerTeidC, sequence);
        out.writeByte(GtpV1Ie.CAUSE).writeByte(cause);
        boolean accepted = cause >= 128 && cause < 192;
        if (accepted) {
            out.writeByte(GtpV1Ie.REORDERING_REQUIRED).writeByte(0xFE); // spare bits 1, "not required"
        }
        out.writeByte(GtpV1Ie.RECOVERY).writeByte(recovery);
        if (accepted) {
            out.writeByte(GtpV1Ie.TEID_DATA_I).writeInt(g.dataId);
            out.writeByte(GtpV1Ie.TEID_CONTROL_PLANE).writeInt(g.controlId);
            out.writeByte(GtpV1Ie.CHARGING_ID).writeInt(g.chargingId);
            endUserAddress(out, g.ueIpv4);
            gsnAddress(out, g.ownAddress);
            gsnAddress(out, g.ownAddress);
            out.writeByte(GtpV1Ie.QOS_PROFILE).writeShort(4).writeInt(QOS_R99);
        }
        return patchV1Length(out, start);
    }

    /** v1 Delete PDP Context Response: Cause only (29.060 7.3.6). */
    public static int writeV1Delete(ByteBuf out, int sequence, int peerTeidC, int cause) {
        int start = out.writerIndex();
        v1Header(out, GtpMessageType.V1_DELETE_PDP_CONTEXT_RESPONSE, peerTeidC, sequence);
        out.writeByte(GtpV1Ie.CAUSE).writeByte(cause);
        return patchV1Length(out, start);
    }

    /** v1 Update PDP Context Response: Cause only (29.060 7.3.4; a rejection carries no more). */
    public static int writeV1Update(ByteBuf out, int sequence, int peerTeidC, int cause) {
        int start = out.writerIndex();
        v1Header(out, GtpMessageType.V1_UPDATE_PDP_CONTEXT_RESPONSE, peerTeidC, sequence);
        out.writeByte(GtpV1Ie.CAUSE).writeByte(cause);
        return patchV1Length(out, start);
    }

    /** v0 Create PDP Context Response (GSM 09.60 7.5.2): TID of the request, flow label = the SGSN's Flow Label Signalling. */
    public static int writeV0Create(ByteBuf out, int sequence, int peerFlowLabel, long tid, int cause, int recovery, Grant g) {
        int start = out.writerIndex();
        v0Header(out, GtpMessageType.V1_CREATE_PDP_CONTEXT_RESPONSE, sequence, peerFlowLabel, tid);
        out.writeByte(GtpV1Ie.CAUSE).writeByte(cause);
        boolean accepted = cause >= 128 && cause < 192;
        if (accepted) {
            out.writeByte(GtpV1Ie.QOS_PROFILE_V0).writeMedium(QOS_V0);
            out.writeByte(GtpV1Ie.REORDERING_REQUIRED).writeByte(0xFE);
        }
        out.writeByte(GtpV1Ie.RECOVERY).writeByte(recovery);
        if (accepted) {
            out.writeByte(GtpV1Ie.TEID_DATA_I).writeShort(g.dataId);
            out.writeByte(GtpV1Ie.TEID_CONTROL_PLANE).writeShort(g.controlId);
            out.writeByte(GtpV1Ie.CHARGING_ID).writeInt(g.chargingId);
            endUserAddress(out, g.ueIpv4);
            gsnAddress(out, g.ownAddress);
            gsnAddress(out, g.ownAddress);
        }
        return patchV0Length(out, start);
    }

    /** v0 Delete PDP Context Response: Cause only. */
    public static int writeV0Delete(ByteBuf out, int sequence, int peerFlowLabel, long tid, int cause) {
        int start = out.writerIndex();
        v0Header(out, GtpMessageType.V1_DELETE_PDP_CONTEXT_RESPONSE, sequence, peerFlowLabel, tid);
        out.writeByte(GtpV1Ie.CAUSE).writeByte(cause);
        return patchV0Length(out, start);
    }

    /**
     * v2 Create Session Response; header TEID = the requester's sender F-TEID (instance 0). Accepted:
     * Cause, F-TEID instance 1 (S5/S8 PGW GTP-C), PAA (IPv4), APN Restriction, Bearer Context
     * (EBI, Cause, F-TEID instance 2 S5/S8 PGW GTP-U, Charging ID), Recovery.
     */
    public static int writeV2Create(ByteBuf out, int sequence, int peerTeid, int cause, int recovery, Grant g) {
        int start = out.writerIndex();
        v2Header(out, GtpMessageType.V2_CREATE_SESSION_RESPONSE, peerTeid, sequence);
        v2Cause(out, cause);
        if (cause >= 16 && cause <= 63) {
            fteid(out, 1, GtpV2Ie.IF_S5S8_PGW_GTPC, g.controlId, g.ownAddress);
            ie2(out, GtpV2Ie.PAA, 0, 5).writeByte(1).writeInt(g.ueIpv4);
            ie2(out, GtpV2Ie.APN_RESTRICTION, 0, 1).writeByte(0);
            int bc = out.writerIndex();
            ie2(out, GtpV2Ie.BEARER_CONTEXT, 0, 0);
            ie2(out, GtpV2Ie.EBI, 0, 1).writeByte(g.ebi & 0x0F);
            v2Cause(out, cause);
            fteid(out, 2, GtpV2Ie.IF_S5S8_PGW_GTPU, g.dataId, g.ownAddress);
            ie2(out, GtpV2Ie.CHARGING_ID, 0, 4).writeInt(g.chargingId);
            out.setShort(bc + 1, out.writerIndex() - bc - 4);
        }
        ie2(out, GtpV2Ie.RECOVERY, 0, 1).writeByte(recovery);
        return patchV2Length(out, start);
    }

    /** v2 Modify Bearer Response: Cause only. */
    public static int writeV2Modify(ByteBuf out, int sequence, int peerTeid, int cause) {
        int start = out.writerIndex();
        v2Header(out, GtpMessageType.V2_MODIFY_BEARER_RESPONSE, peerTeid, sequence);
        v2Cause(out, cause);
        return patchV2Length(out, start);
    }

    /** v2 Delete Session Response: Cause only. */
    public static int writeV2Delete(ByteBuf out, int sequence, int peerTeid, int cause) {
        int start = out.writerIndex();
        v2Header(out, GtpMessageType.V2_DELETE_SESSION_RESPONSE, peerTeid, sequence);
        v2Cause(out, cause);
        return patchV2Length(out, start);
    }

    // ---- pieces shared with the request encoder of the load generator ----------------------

    /** v1 header with S = 1 (12 octets), length patched by {@link #patchV1Length}. */
    public static void v1Header(ByteBuf out, int type, int teid, int sequence) {
        out.writeByte(GtpV1Message.FLAGS_SIGNALLING).writeByte(type).writeShort(0).writeInt(teid)
                .writeShort(sequence).writeByte(0).writeByte(0);
    }

    public static int patchV1Length(ByteBuf out, int start) {
        int total = out.writerIndex() - start;
        out.setShort(start + 2, total - GtpV1Message.MANDATORY_HEADER_LENGTH);
        return total;
    }

    /** v0 header (20 octets): flags 0x1E, SNDCP 0xFF, spare 0xFFFFFF, length patched by {@link #patchV0Length}. */
    public static void v0Header(ByteBuf out, int type, int sequence, int flowLabel, long tid) {
        out.writeByte(GtpV0Message.FLAGS).writeByte(type).writeShort(0).writeShort(sequence).writeShort(flowLabel)
                .writeByte(0xFF).writeMedium(0xFFFFFF).writeLong(tid);
    }

    public static int patchV0Length(ByteBuf out, int start) {
        int total = out.writerIndex() - start;
        out.setShort(start + 2, total - GtpV0Message.HEADER_LENGTH);
        return total;
    }

    /** v2 header with T = 1 (12 octets), length patched by {@link #patchV2Length}. */
    public static void v2Header(ByteBuf out, int type, int teid, int sequence) {
        out.writeByte(GtpV2Message.FLAGS_TEID).writeByte(type).writeShort(0).writeInt(teid).writeMedium(sequence).writeByte(0);
    }

    public static int patchV2Length(ByteBuf out, int start) {
        int total = out.writerIndex() - start;
        out.setShort(start + 2, total - 4);
        return total;
    }

    /** v2 IE header: type, value length, instance; returns {@code out} for the value. */
    public static ByteBuf ie2(ByteBuf out, int type, int instance, int length) {
        return out.writeByte(type).writeShort(length).writeByte(instance & 0x0F);
    }

    /** v2 F-TEID (IE 87) with an IPv4 (4 octets) or IPv6 (16 octets) address. */
    public static void fteid(ByteBuf out, int instance, int interfaceType, int teid, byte[] address) {
        boolean v6 = address.length == 16;
        ie2(out, GtpV2Ie.F_TEID, instance, 5 + address.length).writeByte((v6 ? 0x40 : 0x80) | interfaceType)
                .writeInt(teid).writeBytes(address);
    }

    /** v0/v1 GSN Address (TLV 133). */
    public static void gsnAddress(ByteBuf out, byte[] address) {
        out.writeByte(GtpV1Ie.GSN_ADDRESS).writeShort(address.length).writeBytes(address);
    }

    private static void endUserAddress(ByteBuf out, int ipv4) {
        // spare 1111 + IETF organisation 1, PDP type IPv4 0x21, then the address
        out.writeByte(GtpV1Ie.END_USER_ADDRESS).writeShort(6).writeByte(0xF1).writeByte(0x21).writeInt(ipv4);
    }

    private static void v2Cause(ByteBuf out, int cause) {
        ie2(out, GtpV2Ie.CAUSE, 0, 2).writeByte(cause).writeByte(0);
    }
}
