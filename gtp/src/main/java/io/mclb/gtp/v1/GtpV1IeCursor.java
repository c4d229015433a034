package io.mclb.gtp.v1;

import io.mclb.net.DropReason;
import io.mclb.gtp.GtpDrops;
import io.netty.buffer.ByteBuf;

/**
 * Allocation-free walk over GTPv0/v1 IEs between two absolute offsets of a buffer.
 * <pre>
 *  TV  (type 1..127):   | type | value (fixed length by type)           |
 *  TLV (type 128..255): | type | length (2, value only) | value         |
 *  141 (Ext Hdr Type List): | type | length (1) | value                 |
 * </pre>
 * Usage: {@code reset(...)}, then {@code while (c.next()) { c.type(); c.valueOffset(); ... }};
 * after {@code next()} returns false, {@link #error()} is null for a clean end or the reason.
 *
 * <p>Choice on unknown TV types: the walk stops with {@link GtpDrops#UNKNOWN_FIXED_LENGTH_IE} even
 * if the IE could be the last one, because nothing tells where its value ends (osmo-ggsn's
 * {@code gtpie_decaps} also fails on an unknown TV type). Reusable, one instance per event loop.
 */
public final class GtpV1IeCursor {
    private ByteBuf buf;
    private int next;
    private int end;
    private boolean v0;
    private int type;
    private int valueOffset;
    private int valueLength;
    private DropReason error;

    /** Positions the cursor before the first IE of {@code [start, end)}; {@code v0} selects the v0 TV lengths. */
    public GtpV1IeCursor reset(ByteBuf buf, int start, int end, boolean v0) {
        this.buf = buf;
        this.next = start;
        this.end = end;
        this.v0 = v0;
        this.type = -1;
        this.valueOffset = -1;
        this.valueLength = 0;
        this.error = null;
        return this;
    }

    /** Advances to the next IE; false at the end or on an error (then {@link #error()} is set). */
    public boolean next() {
        if (error != null || next >= end) {
            return false;
        }
        int p = next;
        int t = buf.getByte(p) & 0xFF;
        int len;
        int hdr;
        if ((t & 0x80) == 0) {
            len = v0 ? GtpV1Ie.fixedLengthV0(t) : GtpV1Ie.fixedLengthV1(t);
            if (len < 0) {
                return fail(GtpDrops.UNKNOWN_FIXED_LENGTH_IE);
            }
            hdr = 1;
        } else if (t == GtpV1Ie.EXTENSION_HEADER_TYPE_LIST) {
            if (p + 2 > end) {
                return fail(GtpDrops.IE_OVERRUNS_MESSAGE);
            }
            len = buf.getByte(p + 1) & 0xFF;
            hdr = 2;
        } else {
            if (p + 3 > end) {
                return fail(GtpDrops.IE_OVERRUNS_MESSAGE);
            }
            len = buf.getUnsignedShort(p + 1);
            hdr = 3;
        }
        if (p + hdr + len > end) {
            return fail(GtpDrops.IE_OVERRUNS_MESSAGE);
        }
        type = t;
        valueOffset = p + hdr;
        valueLength = len;
        next = p + hdr + len;
        return true;
    }

    private boolean fail(DropReason reason) {
        error = reason;
        type = -1;
        return false;
    }

    /** Type octet of the current IE. */
    public int type() {
        return type;
    }

    /** Absolute offset of the current IE's type octet. */
    public int ieOffset() {
        return valueOffset - (type < 128 ? 1 : type == GtpV1Ie.EXTENSION_HEADER_TYPE_LIST ? 2 : 3);
    }

    /** Absolute offset of the current IE's value. */
    public int valueOffset() {
        return valueOffset;
    }

    /** Value length of the current IE (fixed for TV, from the length field for TLV). */
    public int valueLength() {
        return valueLength;
    }

    /** Null after a clean end of the IEs, else why the walk stopped. */
    public DropReason error() {
        return error;
    }
}
