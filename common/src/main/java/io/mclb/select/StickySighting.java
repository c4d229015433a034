package io.mclb.select;

import io.mclb.sticky.StickyRefresh;
import io.mclb.sticky.StickyTable;

/**
 * What a request's sticky lookup found: the entry's real and expiry and the table's
 * {@link StickyTable#version()} just before the read. It lets the accepting answer of a
 * {@link StickyMode#ON_ANSWER} request skip its write when that write would store what is
 * already there ({@link #holds}): a returning GTP subscriber then costs one table query per create
 * instead of two. Reusable, loop-confined.
 */
public final class StickySighting {
    private long version = -1;
    private long realId;
    private long expiresEpochSeconds;

    /** Nothing seen (no entry, or the table was changing). */
    public StickySighting clear() {
        version = -1;
        realId = 0;
        expiresEpochSeconds = 0;
        return this;
    }

    void saw(long tableVersion, long realId, long expiresEpochSeconds) {
        this.version = tableVersion;
        this.realId = realId;
        this.expiresEpochSeconds = expiresEpochSeconds;
    }

    public StickySighting copyFrom(StickySighting other) {
        this.version = other.version;
        this.realId = other.realId;
        this.expiresEpochSeconds = other.expiresEpochSeconds;
        return this;
    }

    /**
     * True when the entry seen still names {@code realId} (nothing removed or re-pointed an entry
     * since: {@code table}'s version is unchanged) and expires within the refresh slack of what
     * writing it now would store ({@link StickyRefresh#current}).
     */
    boolean holds(StickyTable table, long realId, int stickySeconds, long nowEpochMillis) {
        return version >= 0 && this.realId == realId
                && StickyRefresh.current(expiresEpochSeconds, stickySeconds, nowEpochMillis)
                && table.version() == version;
    }
}
