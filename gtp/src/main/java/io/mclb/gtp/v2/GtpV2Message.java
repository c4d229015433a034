package io.mclb.gtp.v2;

import io.mclb.gtp.Apn;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.Tbcd;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a GTPv2-C message (29.274 section 5; gtp.md section 4) at a buffer's reader index.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |Ver=2|P|T|M|0 0| Message type  |  Length (octets after the 4)  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              TEID (only if T = 1)                             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |            Sequence number (24 bits)          | Prio  | spare |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | IEs: type(1) length(2) CR/instance(1) value ...               |
 * </pre>
 * Flag masks as in Wireshark packet-gtpv2.c (P 0x10, T 0x08, MP 0x04). {@link #wrap} validates:
 * header present, version 2, {@code length} at least the rest of the header (8 with T, 4 without)
 * and within the datagram, then every top-level IE and the IEs inside Bearer Contexts. Octets after
 * {@code 4 + length} are tolerated: with P = 1 they are the piggybacked message
 * ({@link #piggybackOffset()}), otherwise they are ignored and forwarded ({@link #trailingBytes()}).
 *
 * <p>Indexed at wrap (first top-level occurrence): IMSI, Cause, Recovery, APN, EBI, RAT Type,
 * F-TEID instance 0 and 1, first Bearer Context. Accessors are defined only after {@code wrap}
 * returned true; reusable per event loop, allocation-free.
 */
public final class GtpV2Message {
    /** Flags octet with T = 1 (all messages but Echo / Version Not Supported). */
    public static final int FLAGS_TEID = 0x48;
    /** Flags octet with T = 0 (Echo Request/Response, Version Not Supported Indication). */
    public static final int FLAGS_NO_TEID = 0x40;

    private final GtpV2IeCursor cursor = new GtpV2IeCursor();
    private final GtpV2IeCursor inner = new GtpV2IeCursor();
    private ByteBuf buf;
    private int base;
    private int end;
    private int datagramEnd;
    private int iesOffset;
    private DropReason reason;

    private int imsi;
    private int imsiLength;
    private int cause;
    private int causeLength;
    private int recovery;
    private int apn;
    private int apnLength;
    private int ebi;
    private int ratType;
    private int bearerContext;
    private int bearerContextLength;
    private final int[] fteid = new int[2];
    private final int[] fteidLength = new int[2];
    private int ieCount;

    public boolean wrap(ByteBuf buf) {
        return wrap(buf, buf.readerIndex(), buf.readableBytes());
    }

    /** Wraps {@code length} octets at absolute {@code offset}; false with {@link #reason()} when malformed. */
    public boolean wrap(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.base = offset;
        this.datagramEnd = offset + length;
        this.reason = null;
        if (length < 1) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        int flags = buf.getByte(offset) & 0xFF;
        if ((flags >>> 5) != 2) {
            return fail(GtpDrops.UNSUPPORTED_VERSION);
        }
        int headerLength = (flags & 0x08) != 0 ? 12 : 8;
        if (length < headerLength) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        int len = buf.getUnsignedShort(offset + 2);
        if (len < headerLength - 4) {
            return fail(GtpDrops.LENGTH_TOO_SHORT);
        }
        end = offset + 4 + len;
        if (end > datagramEnd) {
            return fail(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        iesOffset = offset + headerLength;
        DropReason ieError = index();
        return ieError == null || fail(ieError);
    }

    private DropReason index() {
        imsi = cause = recovery = apn = ebi = ratType = bearerContext = -1;
        imsiLength = causeLength = apnLength = bearerContextLength = 0;
        fteid[0] = fteid[1] = -1;
        fteidLength[0] = fteidLength[1] = 0;
        ieCount = 0;
        GtpV2IeCursor c = cursor.reset(buf, iesOffset, end);
        while (c.next()) {
            ieCount++;
            int v = c.valueOffset();
            int l = c.valueLength();
            switch (c.type()) {
                case GtpV2Ie.IMSI -> {
                    if (imsi < 0) {
                        imsi = v;
                        imsiLength = l;
                    }
                }
                case GtpV2Ie.CAUSE -> {
                    if (cause < 0 && l >= 1) {
                        cause = v;
                        causeLength = l;
                    }
                }
                case GtpV2Ie.RECOVERY -> recovery = recovery < 0 && l >= 1 ? v : recovery;
                case GtpV2Ie.EBI -> ebi = ebi < 0 && l >= 1 ? v : ebi;
                case GtpV2Ie.RAT_TYPE -> ratType = ratType < 0 && l >= 1 ? v : ratType;
                case GtpV2Ie.APN -> {
                    if (apn < 0) {
                        apn = v;
                        apnLength = l;
                    }
                }
                case GtpV2Ie.F_TEID -> {
                    int i = c.instance();
                    if (i < 2 && fteid[i] < 0) {
                        fteid[i] = v;
                        fteidLength[i] = l;
                    }
                }
                case GtpV2Ie.BEARER_CONTEXT -> {
                    GtpV2IeCursor g = inner.reset(buf, v, v + l);
                    while (g.next()) {
                        // walking proves the grouped IE's inner lengths
                    }
                    if (g.error() != null) {
                        return g.error();
                    }
                    if (bearerContext < 0) {
                        bearerContext = v;
                        bearerContextLength = l;
                    }
                }
                default -> { }
            }
        }
        return c.error();
    }

    private boolean fail(DropReason r) {
        reason = r;
        return false;
    }

    /** Why the last {@link #wrap} returned false; null after a successful wrap. */
    public DropReason reason() {
        return reason;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int flags() {
        return buf.getByte(base) & 0xFF;
    }

    /** Always 2 after a successful wrap. */
    public int version() {
        return flags() >>> 5;
    }

    public int messageType() {
        return buf.getByte(base + 1) & 0xFF;
    }

    public GtpMessageType type() {
        return GtpMessageType.v2(messageType());
    }

    /** Header length field: octets after the first 4 (excludes a piggybacked message). */
    public int length() {
        return buf.getUnsignedShort(base + 2);
    }

    public int messageLength() {
        return end - base;
    }

    /** Octets after this message in the datagram (the piggybacked message when P = 1). */
    public int trailingBytes() {
        return datagramEnd - end;
    }

    public boolean hasPiggyback() {
        return (flags() & 0x10) != 0;
    }

    /** Absolute offset of the piggybacked message (wrap a second flyweight there), -1 when P = 0 or nothing follows. */
    public int piggybackOffset() {
        return hasPiggyback() && end < datagramEnd ? end : -1;
    }

    public boolean hasTeid() {
        return (flags() & 0x08) != 0;
    }

    /** TEID, 0 when T = 0 (check {@link #hasTeid()}). */
    public int teid() {
        return hasTeid() ? buf.getInt(base + 4) : 0;
    }

    /** Patches the TEID; false (nothing written) when T = 0. */
    public boolean setTeid(int teid) {
        if (!hasTeid()) {
            return false;
        }
        buf.setInt(base + 4, teid);
        return true;
    }

    private int seqOffset() {
        return base + (hasTeid() ? 8 : 4);
    }

    /** 24-bit sequence number. */
    public int sequence() {
        return buf.getUnsignedMedium(seqOffset());
    }

    /** Patches the 24-bit sequence number in place (upper 8 bits of {@code sequence} ignored). */
    public void setSequence(int sequence) {
        buf.setMedium(seqOffset(), sequence);
    }

    /** Sequence MSB (0x800000): a Command or a message triggered by one (gtp.md section 9). */
    public boolean isCommandSequence() {
        return (sequence() & 0x800000) != 0;
    }

    public boolean hasMessagePriority() {
        return (flags() & 0x04) != 0;
    }

    /** Message priority 0 (highest)..15, -1 when MP = 0. */
    public int messagePriority() {
        return hasMessagePriority() ? (buf.getByte(seqOffset() + 3) & 0xF0) >>> 4 : -1;
    }

    public int iesOffset() {
        return iesOffset;
    }

    public int endOffset() {
        return end;
    }

    public int ieCount() {
        return ieCount;
    }

    /** Resets {@code c} over the top-level IEs. */
    public GtpV2IeCursor ieCursor(GtpV2IeCursor c) {
        return c.reset(buf, iesOffset, end);
    }

    public boolean hasImsi() {
        return imsi >= 0;
    }

    /** Packed IMSI digits ({@link Tbcd}), {@link Tbcd#ABSENT} or {@link Tbcd#NOT_BCD} (also for length 0 or &gt; 8). */
    public long imsi() {
        if (imsi < 0) {
            return Tbcd.ABSENT;
        }
        return imsiLength == 0 ? Tbcd.NOT_BCD : Tbcd.decode(buf, imsi, imsiLength);
    }

    /** The IMSI as an 8-octet raw TBCD key padded with 0xFF (same key as the v1 IMSI IE); {@link Tbcd#EMPTY_RAW} when absent. */
    public long imsiRaw() {
        return imsi < 0 ? Tbcd.EMPTY_RAW : Tbcd.readRaw(buf, imsi, imsiLength);
    }

    public boolean hasCause() {
        return cause >= 0;
    }

    /** Cause value (0..255), -1 when absent. */
    public int cause() {
        return cause < 0 ? -1 : buf.getByte(cause) & 0xFF;
    }

    /** Cause flags octet (PCE 0x04, BCE 0x02, CS 0x01), -1 when absent or the IE has no flags octet. */
    public int causeFlags() {
        return cause < 0 || causeLength < 2 ? -1 : buf.getByte(cause + 1) & 0x07;
    }

    /** Restart counter (0..255), -1 when absent. */
    public int recovery() {
        return recovery < 0 ? -1 : buf.getByte(recovery) & 0xFF;
    }

    /** Top-level EBI (low 4 bits), else the EBI inside the first Bearer Context, else -1. */
    public int ebi() {
        if (ebi >= 0) {
            return buf.getByte(ebi) & 0x0F;
        }
        if (bearerContext < 0) {
            return -1;
        }
        GtpV2IeCursor g = inner.reset(buf, bearerContext, bearerContext + bearerContextLength);
        while (g.next()) {
            if (g.type() == GtpV2Ie.EBI && g.valueLength() >= 1) {
                return buf.getByte(g.valueOffset()) & 0x0F;
            }
        }
        return -1;
    }

    /** RAT Type value, -1 when absent. */
    public int ratType() {
        return ratType < 0 ? -1 : buf.getByte(ratType) & 0xFF;
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

    public boolean apnEquals(byte[] wire) {
        return apn >= 0 && Apn.equalsWire(buf, apn, apnLength, wire);
    }

    /** Absolute offset of the first Bearer Context value, -1 when absent (walk it with a {@link GtpV2IeCursor}). */
    public int bearerContextOffset() {
        return bearerContext;
    }

    public int bearerContextLength() {
        return bearerContextLength;
    }

    public boolean hasFteid(int instance) {
        return (instance == 0 || instance == 1) && fteid[instance] >= 0;
    }

    /**
     * Wraps {@code into} over the top-level F-TEID with {@code instance} 0 (sender's) or 1 (e.g. the
     * PGW S5/S8 control F-TEID in a Create Session Response, gtp.md section 10). False when absent
     * or its value is shorter than its flags announce.
     */
    public boolean fteid(int instance, GtpV2Fteid into) {
        return hasFteid(instance) && into.wrap(buf, fteid[instance], fteidLength[instance], instance);
    }
}
