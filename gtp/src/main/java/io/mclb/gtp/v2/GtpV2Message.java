package io.mclb.gtp.v2;

import io.mclb.gtp.Apn;
import io.mclb.gtp.GtpDrops;
import io.mclb.gtp.GtpHeader;
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
 * and within the datagram (those are {@link GtpHeader}'s), then every top-level IE and the IEs
 * inside Bearer Contexts. Octets after {@code 4 + length} are tolerated: with P = 1 they are the
 * piggybacked message ({@link #piggybackOffset()}), otherwise they are ignored and forwarded
 * ({@link #trailingBytes()}).
 *
 * <p>Indexed at wrap (first top-level occurrence): IMSI, Cause, Recovery, APN, EBI, RAT Type,
 * F-TEID instance 0 and 1, first Bearer Context. Accessors are defined only after {@code wrap}
 * returned true; reusable per event loop, allocation-free.
 */
public final class GtpV2Message extends GtpHeader {
    /** Flags octet with T = 1 (all messages but Echo / Version Not Supported). */
    public static final int FLAGS_TEID = 0x48;
    /** Flags octet with T = 0 (Echo Request/Response, Version Not Supported Indication). */
    public static final int FLAGS_NO_TEID = 0x40;

    private static final int PIGGYBACK_FLAG = 0x10;
    private static final int TEID_FLAG = 0x08;
    private static final int MESSAGE_PRIORITY_FLAG = 0x04;

    private final GtpV2IeCursor cursor = new GtpV2IeCursor();
    private final GtpV2IeCursor inner = new GtpV2IeCursor();

    private int imsi;
    private int imsiLength;
    private int cause;
    private int causeLength;
    private int recovery;
    private int apn;
    private int apnLength;
    private int ebi;
    private int lbi;
    private int ratType;
    private int bearerContext;
    private int bearerContextLength;
    private final int[] fteid = new int[2];
    private final int[] fteidLength = new int[2];
    private int ieCount;

    public GtpV2Message() {
        super(Layout.V2);
    }

    /** Indexes the top-level IEs and proves the inner lengths of every Bearer Context. */
    @Override
    protected DropReason wrapBody() {
        ByteBuf buf = buffer();
        imsi = cause = recovery = apn = ebi = lbi = ratType = bearerContext = -1;
        imsiLength = causeLength = apnLength = bearerContextLength = 0;
        fteid[0] = fteid[1] = -1;
        fteidLength[0] = fteidLength[1] = 0;
        ieCount = 0;
        GtpV2IeCursor c = ieCursor(cursor);
        while (c.next()) {
            ieCount++;
            int v = c.valueOffset();
            int l = c.valueLength();
            violate(GtpV2IeRules.check(c.type(), buf, v, l));
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
                case GtpV2Ie.EBI -> {
                    ebi = ebi < 0 && l >= 1 ? v : ebi;
                    lbi = lbi < 0 && l >= 1 && c.instance() == 0 ? v : lbi;
                }
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
                        // walking proves the grouped IE's inner lengths; their values obey the same rules
                        violate(GtpV2IeRules.check(g.type(), buf, g.valueOffset(), g.valueLength()));
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
        if (c.error() == null) {
            headerViolations();
        }
        return c.error();
    }

    /** T against the type (29.274 5.5.1), and what follows the message against P (5.5.2). */
    private void headerViolations() {
        int type = messageType();
        if (type != 0 && hasTeid() != (type > 3)) {
            violate(GtpDrops.BAD_TEID_FLAG);
        }
        if (hasPiggyback() != (trailingBytes() > 0)) {
            violate(GtpDrops.LENGTH_MISMATCH);
        }
    }

    public boolean hasPiggyback() {
        return (flags() & PIGGYBACK_FLAG) != 0;
    }

    /** Absolute offset of the piggybacked message (wrap a second flyweight there), -1 when P = 0 or nothing follows. */
    public int piggybackOffset() {
        return hasPiggyback() && trailingBytes() > 0 ? endOffset() : -1;
    }

    public boolean hasTeid() {
        return (flags() & TEID_FLAG) != 0;
    }

    /** TEID, 0 when T = 0 (check {@link #hasTeid()}). */
    public int teid() {
        return hasTeid() ? buffer().getInt(baseOffset() + 4) : 0;
    }

    /** Patches the TEID; false (nothing written) when T = 0. */
    public boolean setTeid(int teid) {
        if (!hasTeid()) {
            return false;
        }
        buffer().setInt(baseOffset() + 4, teid);
        return true;
    }

    /** Patches the 24-bit sequence number in place (upper 8 bits of {@code sequence} ignored). */
    public void setSequence(int sequence) {
        writeSequence(sequence);
    }

    /** Sequence MSB (0x800000): a Command or a message triggered by one (gtp.md section 9). */
    public boolean isCommandSequence() {
        return (sequence() & 0x800000) != 0;
    }

    public boolean hasMessagePriority() {
        return (flags() & MESSAGE_PRIORITY_FLAG) != 0;
    }

    /** Message priority 0 (highest)..15, -1 when MP = 0. */
    public int messagePriority() {
        return hasMessagePriority() ? (buffer().getByte(sequenceOffset() + 3) & 0xF0) >>> 4 : -1;
    }

    public int ieCount() {
        return ieCount;
    }

    /** Resets {@code c} over the top-level IEs. */
    public GtpV2IeCursor ieCursor(GtpV2IeCursor c) {
        return c.reset(buffer(), iesOffset(), endOffset());
    }

    public boolean hasImsi() {
        return imsi >= 0;
    }

    /** Packed IMSI digits ({@link Tbcd}), {@link Tbcd#ABSENT} or {@link Tbcd#NOT_BCD} (also for length 0 or &gt; 8). */
    public long imsi() {
        if (imsi < 0) {
            return Tbcd.ABSENT;
        }
        return imsiLength == 0 ? Tbcd.NOT_BCD : Tbcd.decode(buffer(), imsi, imsiLength);
    }

    /** The IMSI as an 8-octet raw TBCD key padded with 0xFF (same key as the v1 IMSI IE); {@link Tbcd#EMPTY_RAW} when absent. */
    public long imsiRaw() {
        return imsi < 0 ? Tbcd.EMPTY_RAW : Tbcd.readRaw(buffer(), imsi, imsiLength);
    }

    public boolean hasCause() {
        return cause >= 0;
    }

    /** Cause value (0..255), -1 when absent. */
    public int cause() {
        return cause < 0 ? -1 : buffer().getByte(cause) & 0xFF;
    }

    /** Cause flags octet (PCE 0x04, BCE 0x02, CS 0x01), -1 when absent or the IE has no flags octet. */
    public int causeFlags() {
        return cause < 0 || causeLength < 2 ? -1 : buffer().getByte(cause + 1) & 0x07;
    }

    /** Restart counter (0..255), -1 when absent. */
    public int recovery() {
        return recovery < 0 ? -1 : buffer().getByte(recovery) & 0xFF;
    }

    /** Top-level EBI (low 4 bits), else the EBI inside the first Bearer Context, else -1. */
    public int ebi() {
        if (ebi >= 0) {
            return buffer().getByte(ebi) & 0x0F;
        }
        if (bearerContext < 0) {
            return -1;
        }
        GtpV2IeCursor g = inner.reset(buffer(), bearerContext, bearerContext + bearerContextLength);
        while (g.next()) {
            if (g.type() == GtpV2Ie.EBI && g.valueLength() >= 1) {
                return buffer().getByte(g.valueOffset()) & 0x0F;
            }
        }
        return -1;
    }

    /**
     * The top-level EBI of instance 0 (low 4 bits), -1 when absent: in a Delete Bearer Request the
     * Linked EPS Bearer ID, present when the whole PDN connection goes (29.274 7.2.9.2).
     */
    public int linkedEbi() {
        return lbi < 0 ? -1 : buffer().getByte(lbi) & 0x0F;
    }

    /** RAT Type value, -1 when absent. */
    public int ratType() {
        return ratType < 0 ? -1 : buffer().getByte(ratType) & 0xFF;
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
        return apn >= 0 && Apn.equalsWire(buffer(), apn, apnLength, wire);
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
        return hasFteid(instance) && into.wrap(buffer(), fteid[instance], fteidLength[instance], instance);
    }
}
