package io.mclb.gtp.v2;

import io.mclb.gtp.GtpDrops;
import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/**
 * Allocation-free walk over GTPv2 IEs between two absolute offsets (29.274 section 8.2.1).
 * <pre>
 *  | type (1) | length (2, value only) | CR/spare (4 bits) | instance (4 bits) | value ... |
 * </pre>
 * For a grouped IE (Bearer Context 93) reset a second cursor over {@code [valueOffset, valueOffset + valueLength)}.
 * After {@code next()} returns false, {@link #error()} is null for a clean end or
 * {@link GtpDrops#IE_OVERRUNS_MESSAGE}. Reusable, one instance per event loop.
 */
public final class GtpV2IeCursor {
    public static final int IE_HEADER_LENGTH = 4;

    private ByteBuf buf;
    private int next;
    private int end;
    private int type;
    private int instance;
    private int valueOffset;
    private int valueLength;
    private DropReason error;

    public GtpV2IeCursor reset(ByteBuf buf, int start, int end) {
        this.buf = buf;
        this.next = start;
        this.end = end;
        this.type = -1;
        this.instance = -1;
        this.valueOffset = -1;
        this.valueLength = 0;
        this.error = null;
        return this;
    }

    /** Advances to the next IE; false at the end or when an IE overruns {@code end}. */
    public boolean next() {
        if (error != null || next >= end) {
            return false;
        }
        int p = next;
        if (p + IE_HEADER_LENGTH > end) {
            error = GtpDrops.IE_OVERRUNS_MESSAGE;
            return false;
        }
        int len = buf.getUnsignedShort(p + 1);
        if (p + IE_HEADER_LENGTH + len > end) {
            error = GtpDrops.IE_OVERRUNS_MESSAGE;
            return false;
        }
        type = buf.getByte(p) & 0xFF;
        instance = buf.getByte(p + 3) & 0x0F;
        valueOffset = p + IE_HEADER_LENGTH;
        valueLength = len;
        next = valueOffset + len;
        return true;
    }

    public int type() {
        return type;
    }

    /** Instance (low 4 bits of octet 4): tells apart IEs of one type in one message. */
    public int instance() {
        return instance;
    }

    /** Absolute offset of the current IE's type octet. */
    public int ieOffset() {
        return valueOffset - IE_HEADER_LENGTH;
    }

    public int valueOffset() {
        return valueOffset;
    }

    public int valueLength() {
        return valueLength;
    }

    public DropReason error() {
        return error;
    }
}
