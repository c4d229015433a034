package io.mclb.gtp;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Flyweight base of the GTPv0, GTPv1 and GTPv2-C messages: the wrap bookkeeping and the header
 * accessors the three versions share. All three open with the same four octets (GSM 09.60
 * section 6, 29.060 section 6, 29.274 section 5.1; gtp.md sections 2-4):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Ver |P| flags | Message type  | Length (after the origin)     |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | version-specific: TEID, sequence number, TID (see subclasses) |
 * </pre>
 * and differ in where the rest sits, stated once per version in {@link Layout}:
 * <pre>
 *  version  fixed header   length origin  PT bit (0x10)   optional TEID  sequence: offset, octets, present
 *  v0       20             20             PT, must be 1   none           4,           2, always
 *  v1        8              8             PT, must be 1   none           8,           2, when S (0x02)
 *  v2        8 (12 if T)    4             P (piggyback)   T (0x08)       4 (8 if T),  3, always
 * </pre>
 * {@link #wrap} validates, in this order (the drop reasons the services count depend on it):
 * an octet present, the version, the fixed header present, PT = 1 where the version has a PT bit
 * (PT = 0 is GTP'), the length field covering the rest of the fixed header, the length field within
 * the datagram; then the subclass's {@link #wrapBody()} validates its optional parts and IEs and
 * may move {@link #iesOffset()} past them.
 *
 * <p>Accessors are defined only after {@code wrap} returned true. The version differences are data
 * (offsets and flag masks read from the layout), not overridden methods, and the subclasses are
 * final: every accessor call is direct and inlinable. Nothing is allocated per message.
 */
public abstract class GtpHeader {
    private static final int TEID_LENGTH = 4;

    /**
     * Where each version keeps its header fields: the table of the class comment, in octets from
     * the flags octet; a flag of 0 is one the version does not have. The v1 sequence lies outside
     * the fixed header, in the optional block that {@code GtpV1Message}'s body check proves present
     * whenever S is set.
     */
    protected enum Layout {
        //  version        fixed header  length origin  PT flag  TEID flag  sequence at  octets  flag
        V0(GtpVersion.V0,  20,           20,            0x10,    0,         4,           2,      0),
        V1(GtpVersion.V1,   8,            8,            0x10,    0,         8,           2,      0x02),
        V2(GtpVersion.V2,   8,            4,            0,       0x08,      4,           3,      0);

        final int version;
        /** Octets that must be present before the length field is trusted (without the optional TEID). */
        final int fixedHeaderLength;
        /** Octets before the ones the length field counts. */
        final int lengthOrigin;
        /** The PT bit, which must be set (GTP' has it clear). */
        final int protocolTypeFlag;
        /** The flag that inserts a 4-octet TEID after the first 4 octets. */
        final int optionalTeidFlag;
        /** Offset of the sequence number when the optional TEID is absent. */
        final int sequenceOffset;
        final int sequenceLength;
        /** The flag that announces the sequence number, 0 when it is always there. */
        final int sequenceFlag;

        Layout(int version, int fixedHeaderLength, int lengthOrigin, int protocolTypeFlag, int optionalTeidFlag,
               int sequenceOffset, int sequenceLength, int sequenceFlag) {
            this.version = version;
            this.fixedHeaderLength = fixedHeaderLength;
            this.lengthOrigin = lengthOrigin;
            this.protocolTypeFlag = protocolTypeFlag;
            this.optionalTeidFlag = optionalTeidFlag;
            this.sequenceOffset = sequenceOffset;
            this.sequenceLength = sequenceLength;
            this.sequenceFlag = sequenceFlag;
        }
    }

    private final Layout layout;
    private ByteBuf buf;
    private int base;
    private int end;
    private int datagramEnd;
    private int iesOffset;
    private DropReason reason;
    private DropReason violation;

    protected GtpHeader(Layout layout) {
        this.layout = layout;
    }

    /** Wraps the readable bytes of {@code buf}; false with {@link #reason()} when the message is malformed. */
    public final boolean wrap(ByteBuf buf) {
        return wrap(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * Wraps {@code length} octets at absolute {@code offset} (e.g. a message inside another buffer);
     * false with {@link #reason()} when malformed.
     */
    public final boolean wrap(ByteBuf buf, int offset, int length) {
        if (!wrapHeader(buf, offset, length)) {
            return false;
        }
        DropReason bodyError = wrapBody();
        return bodyError == null || fail(bodyError);
    }

    /**
     * Validates and indexes what follows the common checks, with every header accessor already
     * defined and {@link #iesOffset()} just after the fixed header and optional TEID; null when
     * the message is well formed, else why it is refused.
     */
    protected abstract DropReason wrapBody();

    private boolean wrapHeader(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.base = offset;
        this.datagramEnd = offset + length;
        this.reason = null;
        this.violation = null;
        if (length < 1) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        int flags = buf.getByte(offset) & 0xFF;
        if ((flags >>> 5) != layout.version) {
            return fail(GtpDrops.UNSUPPORTED_VERSION);
        }
        int headerLength = layout.fixedHeaderLength + teidLength(flags);
        if (length < headerLength) {
            return fail(GtpDrops.TRUNCATED_HEADER);
        }
        if ((flags & layout.protocolTypeFlag) != layout.protocolTypeFlag) {
            return fail(GtpDrops.GTP_PRIME);
        }
        int lengthField = buf.getUnsignedShort(offset + 2);
        if (lengthField < headerLength - layout.lengthOrigin) {
            return fail(GtpDrops.LENGTH_TOO_SHORT);
        }
        end = offset + layout.lengthOrigin + lengthField;
        if (end > datagramEnd) {
            return fail(GtpDrops.LENGTH_EXCEEDS_DATAGRAM);
        }
        iesOffset = offset + headerLength;
        return true;
    }

    private int teidLength(int flags) {
        return (flags & layout.optionalTeidFlag) != 0 ? TEID_LENGTH : 0;
    }

    private boolean fail(DropReason r) {
        reason = r;
        return false;
    }

    /**
     * Records the first spec violation found while the body is walked ({@code null} is ignored):
     * a framing that wrap accepts but a peer must never be sent (issue 14 item 5).
     */
    protected final void violate(DropReason r) {
        if (violation == null) {
            violation = r;
        }
    }

    /**
     * The first spec violation in a wrapped message, null when every field the decoder reads is
     * what 29.060 / 29.274 / GSM 09.60 allow: checked before a request is forwarded. Separate
     * from {@link #reason()} because wrap only proves the framing is safe to read (answers and
     * tools read messages a peer should not have sent).
     */
    public final DropReason violation() {
        return violation;
    }

    /** For a subclass whose IEs start after optional parts it validated (v1 sequence block, extension headers). */
    protected final void setIesOffset(int absoluteOffset) {
        iesOffset = absoluteOffset;
    }

    /** Absolute offset of the flags octet. */
    protected final int baseOffset() {
        return base;
    }

    /** Why the last {@link #wrap} returned false; null after a successful wrap. */
    public final DropReason reason() {
        return reason;
    }

    public final ByteBuf buffer() {
        return buf;
    }

    /** Flags octet: version in the top 3 bits, the version's own flags below. */
    public final int flags() {
        return buf.getByte(base) & 0xFF;
    }

    /** The wrapped version (0, 1 or 2) after a successful wrap. */
    public final int version() {
        return flags() >>> 5;
    }

    public final int messageType() {
        return buf.getByte(base + 1) & 0xFF;
    }

    /** The open-enum view of {@link #messageType()}: v0 and v1 share one numbering, v2 has its own. */
    public final GtpMessageType type() {
        return layout == Layout.V2 ? GtpMessageType.v2(messageType()) : GtpMessageType.v1(messageType());
    }

    /** Header length field: octets after the version's origin (v0 20, v1 8, v2 4; a v2 piggyback is not counted). */
    public final int length() {
        return buf.getUnsignedShort(base + 2);
    }

    /** Total message octets, origin + {@link #length()}. */
    public final int messageLength() {
        return end - base;
    }

    /**
     * Octets in the datagram after the message: tolerated and not parsed (29.060 and GSM 09.60 give
     * them no use, so forwarding them unchanged is harmless); in v2 with P = 1 the piggybacked message.
     */
    public final int trailingBytes() {
        return datagramEnd - end;
    }

    /** Whether the header carries a sequence number: always but in v1 with S = 0. */
    public final boolean hasSequence() {
        return (flags() & layout.sequenceFlag) == layout.sequenceFlag;
    }

    /** The sequence number (16 bits in v0/v1, 24 in v2), -1 when {@link #hasSequence()} is false. */
    public final int sequence() {
        if (!hasSequence()) {
            return -1;
        }
        int at = sequenceOffset();
        return layout.sequenceLength == 2 ? buf.getUnsignedShort(at) : buf.getUnsignedMedium(at);
    }

    /**
     * Patches the sequence number in place (bits above its width ignored); false, nothing written,
     * when the header has none, because a header cannot be grown in place.
     */
    protected final boolean writeSequence(int sequence) {
        if (!hasSequence()) {
            return false;
        }
        int at = sequenceOffset();
        if (layout.sequenceLength == 2) {
            buf.setShort(at, sequence);
        } else {
            buf.setMedium(at, sequence);
        }
        return true;
    }

    /** Absolute offset of the sequence number (meaningful only when {@link #hasSequence()}). */
    protected final int sequenceOffset() {
        return base + layout.sequenceOffset + teidLength(flags());
    }

    /** Absolute offset of the first IE, after the header's optional parts (v1 sequence block and extension headers, v2 TEID). */
    public final int iesOffset() {
        return iesOffset;
    }

    /** Absolute offset one past the message (origin + {@link #length()}). */
    public final int endOffset() {
        return end;
    }
}
