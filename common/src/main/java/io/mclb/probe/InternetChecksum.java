package io.mclb.probe;

import io.netty.buffer.ByteBuf;

/** The Internet checksum (RFC 1071), over a buffer and an optional pseudo-header's sum. */
final class InternetChecksum {
    private InternetChecksum() {
    }

    /**
     * The checksum of {@code length} bytes from {@code at}, added to {@code partial} (the sum of
     * 16-bit words already counted, e.g. a pseudo-header's; 0 for none).
     */
    static int of(ByteBuf b, int at, int length, long partial) {
        long sum = partial;
        int i = 0;
        for (; i + 1 < length; i += 2) {
            sum += b.getUnsignedShort(at + i);
        }
        if (i < length) {
            sum += (b.getUnsignedByte(at + i) << 8);
        }
        while ((sum >> 16) != 0) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        return (int) (~sum & 0xffff);
    }
}
