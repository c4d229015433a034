package io.mclb.probe;

import java.net.InetAddress;
import java.security.SecureRandom;

/**
 * The secret part of a half-open check's initial sequence number. The number the SYN carries is
 * the check's slot and nonce plus a keyed hash of the target's address and port, as the kernel's
 * own connect numbers are (RFC 6528): a sender off the path that knows the reserved port and a
 * target must guess all 32 bits for a forged SYN-ACK to pass a check, where the slot in plain low
 * bits would leave 16. SipHash-2-4 over the address and port, its key drawn per socket.
 */
final class SynSequence {
    private final long k0;
    private final long k1;

    SynSequence(SecureRandom random) {
        this(random.nextLong(), random.nextLong());
    }

    SynSequence(long k0, long k1) {
        this.k0 = k0;
        this.k1 = k1;
    }

    /** What is added to a SYN's slot and nonce for {@code address} and {@code port}. */
    int offset(InetAddress address, int port) {
        byte[] a = address.getAddress();
        long m0 = word(a, 0);
        long m1 = a.length > 8 ? word(a, 8) : 0;
        long m2 = (long) a.length << 32 | (port & 0xffffL);
        return (int) siphash24(k0, k1, m0, m1, m2);
    }

    private static long word(byte[] a, int from) {
        long w = 0;
        for (int i = from; i < Math.min(a.length, from + 8); i++) {
            w = w << 8 | (a[i] & 0xffL);
        }
        return w;
    }

    /**
     * SipHash-2-4 of three message words (the last one carrying the length byte, as the
     * reference packs a message's tail), in locals so that a check allocates nothing for it:
     * rounds 0-5 compress the words two rounds each, rounds 6-9 finalise.
     */
    static long siphash24(long k0, long k1, long m0, long m1, long m2) {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        long m = 0;
        for (int r = 0; r < 10; r++) {
            if (r < 6 && r % 2 == 0) {
                m = r == 0 ? m0 : r == 2 ? m1 : m2;
                v3 ^= m;
            } else if (r == 6) {
                v2 ^= 0xff;
            }
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13) ^ v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16) ^ v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21) ^ v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17) ^ v2;
            v2 = Long.rotateLeft(v2, 32);
            if (r < 6 && r % 2 == 1) {
                v0 ^= m;
            }
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
