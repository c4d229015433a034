package io.mclb.sticky;

/**
 * MurmurHash64A, for hashing long identities into fixed-size keys and for stable real ids, and
 * MurmurHash3's 64-bit finaliser for mixing keys that are already 64 bits.
 */
public final class Hashing {
    private Hashing() {
    }

    @SuppressWarnings("fallthrough") // MurmurHash tail: each case adds one more byte
    public static long murmur64(byte[] data, int off, int len, long seed) {
        final long m = 0xc6a4a7935bd1e995L;
        final int r = 47;
        long h = seed ^ (len * m);
        int n = len / 8;
        for (int i = 0; i < n; i++) {
            int p = off + i * 8;
            long k = (data[p] & 0xffL) | (data[p + 1] & 0xffL) << 8 | (data[p + 2] & 0xffL) << 16
                    | (data[p + 3] & 0xffL) << 24 | (data[p + 4] & 0xffL) << 32 | (data[p + 5] & 0xffL) << 40
                    | (data[p + 6] & 0xffL) << 48 | (data[p + 7] & 0xffL) << 56;
            k *= m;
            k ^= k >>> r;
            k *= m;
            h ^= k;
            h *= m;
        }
        int tail = off + n * 8;
        switch (len & 7) {
            case 7: h ^= (data[tail + 6] & 0xffL) << 48; // fall through
            case 6: h ^= (data[tail + 5] & 0xffL) << 40; // fall through
            case 5: h ^= (data[tail + 4] & 0xffL) << 32; // fall through
            case 4: h ^= (data[tail + 3] & 0xffL) << 24; // fall through
            case 3: h ^= (data[tail + 2] & 0xffL) << 16; // fall through
            case 2: h ^= (data[tail + 1] & 0xffL) << 8; // fall through
            case 1: h ^= data[tail] & 0xffL;
                h *= m;
                break;
            default:
                break;
        }
        h ^= h >>> r;
        h *= m;
        h ^= h >>> r;
        return h;
    }

    /** MurmurHash3's fmix64: a bijection in which every input bit affects every output bit. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
