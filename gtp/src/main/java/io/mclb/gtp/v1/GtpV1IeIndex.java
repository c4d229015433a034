package io.mclb.gtp.v1;

import io.mclb.gtp.Apn;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.Tbcd;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * One pass over the IEs of a GTPv0/v1 message that validates every length and remembers where the
 * IEs the balancer needs start (first occurrence; GSN Address first and second). Shared by
 * {@link GtpV1Message} and {@code GtpV0Message}; all offsets are absolute buffer indexes, -1 when
 * absent. Accessors read only octets this pass has proved to lie inside the message.
 */
public final class GtpV1IeIndex {
    private final GtpV1IeCursor cursor = new GtpV1IeCursor();
    private ByteBuf buf;
    private int cause;
    private int imsi;
    private int recovery;
    private int teidDataI;
    private int teidControl;
    private int nsapi;
    private int apn;
    private int apnLength;
    private int eua;
    private int euaLength;
    private final int[] gsn = new int[2];
    private final int[] gsnLength = new int[2];
    private int ieCount;
    private DropReason violation;

    /** Indexes the IEs in {@code [start, end)}; null when all are well formed, else the reason. */
    public DropReason index(ByteBuf buf, int start, int end, boolean v0) {
        this.buf = buf;
        cause = imsi = recovery = teidDataI = teidControl = nsapi = apn = eua = -1;
        apnLength = euaLength = 0;
        gsn[0] = gsn[1] = -1;
        gsnLength[0] = gsnLength[1] = 0;
        ieCount = 0;
        violation = null;
        GtpV1IeCursor c = cursor.reset(buf, start, end, v0);
        while (c.next()) {
            ieCount++;
            int v = c.valueOffset();
            if (violation == null) {
                violation = GtpV1IeRules.check(c.type(), buf, v, c.valueLength());
            }
            switch (c.type()) {
                case GtpV1Ie.CAUSE -> cause = cause < 0 ? v : cause;
                case GtpV1Ie.IMSI -> imsi = imsi < 0 ? v : imsi;
                case GtpV1Ie.RECOVERY -> recovery = recovery < 0 ? v : recovery;
                case GtpV1Ie.TEID_DATA_I -> teidDataI = teidDataI < 0 ? v : teidDataI;
                case GtpV1Ie.TEID_CONTROL_PLANE -> teidControl = teidControl < 0 ? v : teidControl;
                case GtpV1Ie.NSAPI -> nsapi = nsapi < 0 ? v : nsapi;
                case GtpV1Ie.APN -> {
                    if (apn < 0) {
                        apn = v;
                        apnLength = c.valueLength();
                    }
                }
                case GtpV1Ie.END_USER_ADDRESS -> {
                    if (eua < 0) {
                        eua = v;
                        euaLength = c.valueLength();
                    }
                }
                case GtpV1Ie.GSN_ADDRESS -> {
                    int i = gsn[0] < 0 ? 0 : gsn[1] < 0 ? 1 : -1;
                    if (i >= 0) {
                        gsn[i] = v;
                        gsnLength[i] = c.valueLength();
                    }
                }
                default -> { }
            }
        }
        return c.error();
    }

    /** The first IE value {@link GtpV1IeRules} refuses, null when all are well formed (valid after index). */
    public DropReason violation() {
        return violation;
    }

    /** The buffer the offsets refer to. */
    public ByteBuf buffer() {
        return buf;
    }

    /** Number of IEs walked. */
    public int ieCount() {
        return ieCount;
    }

    public boolean hasCause() {
        return cause >= 0;
    }

    /** Cause value (0..255), or -1 when absent. */
    public int cause() {
        return cause < 0 ? -1 : buf.getByte(cause) & 0xFF;
    }

    public boolean hasImsi() {
        return imsi >= 0;
    }

    /** Raw 8 IMSI octets (wire order, big-endian long): the sticky key; {@link Tbcd#EMPTY_RAW} when absent. */
    public long imsiRaw() {
        return imsi < 0 ? Tbcd.EMPTY_RAW : buf.getLong(imsi);
    }

    /** Packed IMSI digits ({@link Tbcd}), {@link Tbcd#ABSENT} or {@link Tbcd#NOT_BCD}. */
    public long imsi() {
        return imsi < 0 ? Tbcd.ABSENT : Tbcd.decode(buf, imsi, 8);
    }

    /** Absolute offset of the IMSI value, -1 when absent. */
    public int imsiOffset() {
        return imsi;
    }

    /** Restart counter (0..255) of the Recovery IE, -1 when absent. */
    public int recovery() {
        return recovery < 0 ? -1 : buf.getByte(recovery) & 0xFF;
    }

    public boolean hasTeidDataI() {
        return teidDataI >= 0;
    }

    /** v1 TEID Data I (v0: Flow Label Data I, 16 bits); 0 when absent (check {@link #hasTeidDataI}). */
    public int teidDataI(boolean v0) {
        if (teidDataI < 0) {
            return 0;
        }
        return v0 ? buf.getUnsignedShort(teidDataI) : buf.getInt(teidDataI);
    }

    public boolean hasTeidControl() {
        return teidControl >= 0;
    }

    /** v1 TEID Control Plane (v0: Flow Label Signalling, 16 bits); 0 when absent (check {@link #hasTeidControl}). */
    public int teidControl(boolean v0) {
        if (teidControl < 0) {
            return 0;
        }
        return v0 ? buf.getUnsignedShort(teidControl) : buf.getInt(teidControl);
    }

    /** Absolute offset of the TEID-C / Flow Label Signalling value (for patching), -1 when absent. */
    public int teidControlOffset() {
        return teidControl;
    }

    /** Absolute offset of the TEID Data I / Flow Label Data I value, -1 when absent. */
    public int teidDataIOffset() {
        return teidDataI;
    }

    /** NSAPI (low 4 bits of IE 20), -1 when absent. */
    public int nsapi() {
        return nsapi < 0 ? -1 : buf.getByte(nsapi) & 0x0F;
    }

    public boolean hasApn() {
        return apn >= 0;
    }

    /** Absolute offset of the APN value (label-length form), -1 when absent. */
    public int apnOffset() {
        return apn;
    }

    public int apnLength() {
        return apnLength;
    }

    /** Whether the APN equals {@code wire} (from {@link Apn#encode}); false when absent. */
    public boolean apnEquals(byte[] wire) {
        return apn >= 0 && Apn.equalsWire(buf, apn, apnLength, wire);
    }

    /** Absolute offset of the End User Address value, -1 when absent. */
    public int endUserAddressOffset() {
        return eua;
    }

    public int endUserAddressLength() {
        return euaLength;
    }

    /** Absolute offset of GSN Address {@code i} (0 = signalling, 1 = user plane), -1 when absent. */
    public int gsnAddressOffset(int i) {
        return i == 0 || i == 1 ? gsn[i] : -1;
    }

    /** Value length of GSN Address {@code i}: 4 IPv4, 16 IPv6 (anything else: treat as unusable); 0 when absent. */
    public int gsnAddressLength(int i) {
        return i == 0 || i == 1 ? gsnLength[i] : 0;
    }

    /** GSN Address {@code i} as an IPv4 int when it is 4 octets long, else 0. */
    public int gsnAddressIpv4(int i) {
        return gsnAddressLength(i) == 4 ? buf.getInt(gsn[i]) : 0;
    }

    /**
     * Copies GSN Address {@code i} (4 or 16 octets) into {@code dst} at 0; returns the octets copied,
     * 0 when absent or of another length. {@code dst} must hold 16 octets.
     */
    public int gsnAddress(int i, byte[] dst) {
        int len = gsnAddressLength(i);
        if (len != 4 && len != 16) {
            return 0;
        }
        buf.getBytes(gsn[i], dst, 0, len);
        return len;
    }
}
