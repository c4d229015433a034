package io.mclb.sticky;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link StickyTable#version()} for a table whose writers take a per-key lock: a change that can
 * make an earlier read wrong calls {@link #begin} before it changes the entry (under the entry's
 * lock) and {@link #end} once it has; {@link #current()} reads the ends, then the begins.
 *
 * <p>Why equal counts are safe with many writers: each change moves {@code begun} before
 * {@code ended}, so {@code ended(t1) == begun(t2)} with {@code t1 < t2} means no change was under
 * way at {@code t1} and none began before {@code t2}: every change begun before the caller's read
 * (made after {@code t2}) had completed, and one begun later moves {@code begun} past what it saw.
 * Thread-safe; two volatile reads per {@link #current()}.
 */
final class StickyVersion {
    private final AtomicLong begun = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();

    long current() {
        long e = ended.get();
        long b = begun.get();
        return b == e ? b : -1;
    }

    void begin() {
        begun.incrementAndGet();
    }

    void end() {
        ended.incrementAndGet();
    }

    /**
     * Before {@code next} replaces {@code previous} (16-byte {@link StickyValue}s): begins a change
     * and returns true when it names another real or expires earlier, else returns false.
     */
    boolean beginIfInvalidating(byte[] previous, byte[] next) {
        boolean sameReal = true;
        for (int i = 0; i < 8; i++) {
            sameReal &= previous[i] == next[i];
        }
        if (sameReal && expiresSeconds(next) >= expiresSeconds(previous)) {
            return false;
        }
        begin();
        return true;
    }

    void endIf(boolean begun) {
        if (begun) {
            end();
        }
    }

    private static long expiresSeconds(byte[] value) {
        return ((long) (value[12] & 0xff) << 24) | ((value[13] & 0xff) << 16) | ((value[14] & 0xff) << 8)
                | (value[15] & 0xff);
    }
}
