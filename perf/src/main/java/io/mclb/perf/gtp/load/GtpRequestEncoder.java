package io.mclb.perf.gtp.load;

import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v0.TidLayout;
import io.mclb.gtp.v1.GtpV1Ie;
import io.mclb.gtp.v2.GtpV2Ie;
import io.mclb.perf.gtp.sim.GtpResponseEncoder;
import io.netty.buffer.ByteBuf;

/**
 * Writes the requests an SGSN / SGW sends: Create PDP Context (v0/v1), Create Session (v2) and the
 * matching deletes. Each method appends one message at the writer index and returns its length.
 * IE sets follow osmo-ggsn's sgsnemu (v0/v1, ascending type order) and open5gs' S5/S8 Create
 * Session Request (v2); addresses are 4 (IPv4) or 16 (IPv6) octets. Nothing is allocated.
 */
public final class GtpRequestEncoder {
    /** Upper bound of any message written here (with an APN up to 100 octets). */
    public static final int MAX_LENGTH = 256;
    private static final int QOS_R99 = 0x010b921f;
    private static final int QOS_V0 = 0x0b921f;
    /** Selection mode "MS or network provided APN, subscription verified", spare bits 1. */
    private static final int SELECTION_MODE = 0xFC;

    private GtpRequestEncoder() {
    }

    /**
     * The 8-octet TBCD form (v1 IMSI IE, filler F in unused nibbles) of the {@code digits}-digit
     * decimal {@code value} with leading zeros, e.g. (1010000000001, 15) for IMSI 001010000000001.
     */
    public static long imsiRaw(long value, int digits) {
        long raw = -1L;
        long v = value;
        for (int i = digits - 1; i >= 0; i--) {
            int d = (int) (v % 10);
            v /= 10;
            int shift = 8 * (7 - i / 2) + (i % 2 == 0 ? 0 : 4);
            raw = (raw & ~(0xFL << shift)) | ((long) d << shift);
        }
        return raw;
    }

    /** The v0 TID of {@code imsiRaw} (15-digit IMSI) and {@code nsapi} in {@code layout} (see {@link TidLayout}). */
    public static long tid(long imsiRaw, int nsapi, TidLayout layout) {
        long imsiOrder = (imsiRaw & ~0xF0L) | ((long) (nsapi & 0x0F) << 4);
        return layout == TidLayout.OSMO_GGSN ? Long.reverseBytes(imsiOrder) : imsiOrder;
    }

    /** v1 Create PDP Context Request: header TEID 0; IMSI, Selection Mode, TEID-U, TEID-C, NSAPI, EUA (dynamic IPv4), APN, 2 SGSN addresses, QoS. */
    public static int writeV1Create(ByteBuf out, int sequence, long imsiRaw, int nsapi, int teidControl, int teidData,
                                    byte[] sgsnAddress, byte[] apnWire) {
        int start = out.writerIndex();
        GtpResponseEncoder.v1Header(out, GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST, 0, sequence);
        out.writeByte(GtpV1Ie.IMSI).writeLong(imsiRaw);
        out.writeByte(GtpV1Ie.SELECTION_MODE).writeByte(SELECTION_MODE);
        out.writeByte(GtpV1Ie.TEID_DATA_I).writeInt(teidData);
        out.writeByte(GtpV1Ie.TEID_CONTROL_PLANE).writeInt(teidControl);
        out.writeByte(GtpV1Ie.NSAPI).writeByte(nsapi & 0x0F);
        dynamicEndUserAddress(out);
        out.writeByte(GtpV1Ie.APN).writeShort(apnWire.length).writeBytes(apnWire);
        GtpResponseEncoder.gsnAddress(out, sgsnAddress);
        GtpResponseEncoder.gsnAddress(out, sgsnAddress);
        out.writeByte(GtpV1Ie.QOS_PROFILE).writeShort(4).writeInt(QOS_R99);
        return GtpResponseEncoder.patchV1Length(out, start);
    }

    /** v1 Delete PDP Context Request to the GGSN's TEID-C: Teardown Ind 1, NSAPI. */
    public static int writeV1Delete(ByteBuf out, int sequence, int ggsnTeidControl, int nsapi) {
        int start = out.writerIndex();
        GtpResponseEncoder.v1Header(out, GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST, ggsnTeidControl, sequence);
        out.writeByte(GtpV1Ie.TEARDOWN_IND).writeByte(0xFF);
        out.writeByte(GtpV1Ie.NSAPI).writeByte(nsapi & 0x0F);
        return GtpResponseEncoder.patchV1Length(out, start);
    }

    /** v0 Create PDP Context Request (GSM 09.60 7.5.1): flow label 0; QoS, Selection Mode, flow labels, EUA, APN, 2 SGSN addresses. */
    public static int writeV0Create(ByteBuf out, int sequence, long tid, int flowLabelSignalling, int flowLabelData,
                                    byte[] sgsnAddress, byte[] apnWire) {
        int start = out.writerIndex();
        GtpResponseEncoder.v0Header(out, GtpMessageType.V1_CREATE_PDP_CONTEXT_REQUEST, sequence, 0, tid);
        out.writeByte(GtpV1Ie.QOS_PROFILE_V0).writeMedium(QOS_V0);
        out.writeByte(GtpV1Ie.SELECTION_MODE).writeByte(SELECTION_MODE);
        out.writeByte(GtpV1Ie.TEID_DATA_I).writeShort(flowLabelData);
        out.writeByte(GtpV1Ie.TEID_CONTROL_PLANE).writeShort(flowLabelSignalling);
        dynamicEndUserAddress(out);
        out.writeByte(GtpV1Ie.APN).writeShort(apnWire.length).writeBytes(apnWire);
        GtpResponseEncoder.gsnAddress(out, sgsnAddress);
        GtpResponseEncoder.gsnAddress(out, sgsnAddress);
        return GtpResponseEncoder.patchV0Length(out, start);
    }

    /** v0 Delete PDP Context Request: the GGSN's Flow Label Signalling in the header, the TID, no IEs. */
    public static int writeV0Delete(ByteBuf out, int sequence, int ggsnFlowLabel, long tid) {
        int start = out.writerIndex();
        GtpResponseEncoder.v0Header(out, GtpMessageType.V1_DELETE_PDP_CONTEXT_REQUEST, sequence, ggsnFlowLabel, tid);
        return GtpResponseEncoder.patchV0Length(out, start);
    }

    /**
     * v2 Create Session Request (S5/S8): header TEID 0; IMSI, RAT Type EUTRAN, sender F-TEID
     * (instance 0, S5/S8 SGW GTP-C), APN, PDN Type IPv4, PAA 0.0.0.0, Bearer Context (EBI, Bearer QoS QCI 9).
     */
    public static int writeV2Create(ByteBuf out, int sequence, long imsiRaw, int ebi, int senderTeid, byte[] sgwAddress,
                                    byte[] apnWire) {
        int start = out.writerIndex();
        GtpResponseEncoder.v2Header(out, GtpMessageType.V2_CREATE_SESSION_REQUEST, 0, sequence);
        GtpResponseEncoder.ie2(out, GtpV2Ie.IMSI, 0, 8).writeLong(imsiRaw);
        GtpResponseEncoder.ie2(out, GtpV2Ie.RAT_TYPE, 0, 1).writeByte(6);
        GtpResponseEncoder.fteid(out, 0, GtpV2Ie.IF_S5S8_SGW_GTPC, senderTeid, sgwAddress);
        GtpResponseEncoder.ie2(out, GtpV2Ie.APN, 0, apnWire.length).writeBytes(apnWire);
        GtpResponseEncoder.ie2(out, GtpV2Ie.PDN_TYPE, 0, 1).writeByte(1);
        GtpResponseEncoder.ie2(out, GtpV2Ie.PAA, 0, 5).writeByte(1).writeInt(0);
        int bc = out.writerIndex();
        GtpResponseEncoder.ie2(out, GtpV2Ie.BEARER_CONTEXT, 0, 0);
        GtpResponseEncoder.ie2(out, GtpV2Ie.EBI, 0, 1).writeByte(ebi & 0x0F);
        // Bearer QoS: PCI/PL/PVI, QCI 9, then MBR UL/DL and GBR UL/DL (5 octets each) all 0.
        GtpResponseEncoder.ie2(out, GtpV2Ie.BEARER_QOS, 0, 22).writeByte(0x24).writeByte(9).writeZero(20);
        out.setShort(bc + 1, out.writerIndex() - bc - 4);
        return GtpResponseEncoder.patchV2Length(out, start);
    }

    /** v1 Update PDP Context Request to the GGSN's TEID-C (29.060 7.3.3, SGSN-initiated): NSAPI only, enough to route and answer. */
    public static int writeV1Update(ByteBuf out, int sequence, int ggsnTeidControl, int nsapi) {
        int start = out.writerIndex();
        GtpResponseEncoder.v1Header(out, GtpMessageType.V1_UPDATE_PDP_CONTEXT_REQUEST, ggsnTeidControl, sequence);
        out.writeByte(GtpV1Ie.NSAPI).writeByte(nsapi & 0x0F);
        return GtpResponseEncoder.patchV1Length(out, start);
    }

    /** v2 Modify Bearer Request to the PGW's control TEID (29.274 7.2.7): EBI only, enough to route and answer. */
    public static int writeV2Modify(ByteBuf out, int sequence, int pgwTeid, int ebi) {
        int start = out.writerIndex();
        GtpResponseEncoder.v2Header(out, GtpMessageType.V2_MODIFY_BEARER_REQUEST, pgwTeid, sequence);
        GtpResponseEncoder.ie2(out, GtpV2Ie.EBI, 0, 1).writeByte(ebi & 0x0F);
        return GtpResponseEncoder.patchV2Length(out, start);
    }

    /** v2 Delete Session Request to the PGW's control TEID: Linked EBI. */
    public static int writeV2Delete(ByteBuf out, int sequence, int pgwTeid, int ebi) {
        int start = out.writerIndex();
        GtpResponseEncoder.v2Header(out, GtpMessageType.V2_DELETE_SESSION_REQUEST, pgwTeid, sequence);
        GtpResponseEncoder.ie2(out, GtpV2Ie.EBI, 0, 1).writeByte(ebi & 0x0F);
        return GtpResponseEncoder.patchV2Length(out, start);
    }

    private static void dynamicEndUserAddress(ByteBuf out) {
        // IETF, IPv4, no address: "allocate dynamically"
        out.writeByte(GtpV1Ie.END_USER_ADDRESS).writeShort(2).writeByte(0xF1).writeByte(0x21);
    }
}
