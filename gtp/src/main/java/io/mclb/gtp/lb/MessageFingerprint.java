package io.mclb.gtp.lb;

import io.mclb.sticky.Hashing;
import io.netty.buffer.ByteBuf;

/**
 * What tells a retransmitted GTP request from a new one with the same sequence number: a 64-bit
 * hash of the whole message as received. A retransmission is the same message sent again
 * (29.060 section 7.6, 29.274 section 7.6), so its bytes match; a new request that reuses the
 * sequence number does not.
 *
 * <p>The sequence number alone is not enough: it is 16 bits, so an SGSN sending 5,000 requests a
 * second reuses each one every 13 s, inside the time mclb keeps an answered transaction for late
 * retransmissions. Keyed by sequence and type only, such a new create was taken for a
 * retransmission of the old one and sent to the old create's GGSN with the old upstream sequence.
 */
final class MessageFingerprint {
    private MessageFingerprint() {
    }

    /** Hash of the readable bytes of {@code buf}; allocates nothing, does not move its indices. */
    static long of(ByteBuf buf) {
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        long h = 0x9E3779B97F4A7C15L ^ (end - i);
        for (; i + 8 <= end; i += 8) {
            h = Hashing.fmix64(h ^ buf.getLong(i));
        }
        long tail = 0;
        for (; i < end; i++) {
            tail = (tail << 8) | (buf.getByte(i) & 0xFF);
        }
        return Hashing.fmix64(h ^ tail);
    }
}
