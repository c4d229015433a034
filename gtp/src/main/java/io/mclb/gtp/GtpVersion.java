package io.mclb.gtp;

import io.netty.buffer.ByteBuf;

/**
 * Version dispatch: version = octet 0 bits 8-6 ({@code flags >> 5}), 0, 1 or 2 (gtp.md section 1;
 * Wireshark packet-gtp.c hands 2 to packet-gtpv2.c and rejects &gt; 2).
 */
public final class GtpVersion {
    public static final int V0 = 0;
    public static final int V1 = 1;
    public static final int V2 = 2;
    /** Returned by {@link #peek} for an empty buffer. */
    public static final int NONE = -1;

    private GtpVersion() {
    }

    /** Version of the datagram at the reader index (0..7, so the caller counts 3..7 as unsupported), or {@link #NONE}. */
    public static int peek(ByteBuf buf) {
        if (buf.readableBytes() < 1) {
            return NONE;
        }
        return (buf.getByte(buf.readerIndex()) & 0xE0) >>> 5;
    }
}
