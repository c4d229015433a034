package io.mclb.sticky;

/**
 * A reusable sticky value: a flyweight over 16 bytes.
 *
 * <pre>
 *  0                               8               12              16
 * +-------------------------------+---------------+---------------+
 * | realId (BE)                   | created (s)   | expires (s)   |
 * +-------------------------------+---------------+---------------+
 * </pre>
 * {@code realId} is {@link io.mclb.farm.RealId#of} of (farm, address, port): stable across
 * restarts and reloads, so an entry finds its real again without storing names. Times are
 * epoch seconds (unsigned 32-bit: good until 2106).
 */
public final class StickyValue {
    public static final int SIZE = 16;

    private final byte[] bytes = new byte[SIZE];

    public byte[] bytes() {
        return bytes;
    }

    public long realId() {
        return StickyKey.getLong(bytes, 0);
    }

    public long createdEpochSeconds() {
        return getInt(8);
    }

    public long expiresEpochSeconds() {
        return getInt(12);
    }

    public StickyValue set(long realId, long createdEpochSeconds, long expiresEpochSeconds) {
        StickyKey.putLong(bytes, 0, realId);
        putInt(8, createdEpochSeconds);
        putInt(12, expiresEpochSeconds);
        return this;
    }

    public StickyValue copyFrom(byte[] src) {
        System.arraycopy(src, 0, bytes, 0, SIZE);
        return this;
    }

    public boolean expiredAt(long nowEpochMillis) {
        return expiresEpochSeconds() * 1000L <= nowEpochMillis;
    }

    private long getInt(int off) {
        return ((long) (bytes[off] & 0xff) << 24) | ((bytes[off + 1] & 0xff) << 16)
                | ((bytes[off + 2] & 0xff) << 8) | (bytes[off + 3] & 0xff);
    }

    private void putInt(int off, long v) {
        bytes[off] = (byte) (v >>> 24);
        bytes[off + 1] = (byte) (v >>> 16);
        bytes[off + 2] = (byte) (v >>> 8);
        bytes[off + 3] = (byte) v;
    }

    @Override
    public String toString() {
        return "real=" + Long.toHexString(realId()) + " created=" + createdEpochSeconds() + " expires="
                + expiresEpochSeconds();
    }
}
