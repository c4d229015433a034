package io.mclb.select;

import io.mclb.sticky.StickyKey;

/**
 * The routing facts of one new request or flow, as {@link RealSelector#select} reads them: the
 * subscriber's sticky key, a route key for keyed predictors (route map), and the real a follow-up
 * belongs to. Reusable and loop-confined: {@link #reset()} before each use.
 */
public final class Selection {
    private final StickyKey stickyKey = new StickyKey();
    private boolean sticky;
    private int stickySeconds;
    private StickyMode stickyMode = StickyMode.ON_ASSIGN;
    private boolean hasRouteKey;
    private long routeKey;
    private long boundRealId;
    private final StickySighting sighting = new StickySighting();

    public Selection reset() {
        sighting.clear();
        sticky = false;
        stickySeconds = 0;
        stickyMode = StickyMode.ON_ASSIGN;
        hasRouteKey = false;
        routeKey = 0;
        boundRealId = 0;
        return this;
    }

    /** The key to fill before {@link #sticky(int, StickyMode)}. */
    public StickyKey stickyKey() {
        return stickyKey;
    }

    /** The request belongs to the subscriber in {@link #stickyKey()}, whose entry lives {@code seconds}. */
    public Selection sticky(int seconds, StickyMode mode) {
        this.sticky = true;
        this.stickySeconds = seconds;
        this.stickyMode = mode;
        return this;
    }

    /** Restores the sticky part from a transaction's copy of its key. */
    public Selection sticky(byte[] key, int seconds, StickyMode mode) {
        stickyKey.copyFrom(key);
        return sticky(seconds, mode);
    }

    /** A key a keyed predictor maps to a real ({@code predictor route-map}: the subscriber's IPv4 address). */
    public Selection routeKey(long key) {
        this.hasRouteKey = true;
        this.routeKey = key;
        return this;
    }

    /** A follow-up of a session learnt earlier: its real is tried first. */
    public Selection boundTo(long realId) {
        this.boundRealId = realId;
        return this;
    }

    public boolean isSticky() {
        return sticky;
    }

    public int stickySeconds() {
        return stickySeconds;
    }

    public StickyMode stickyMode() {
        return stickyMode;
    }

    public boolean hasRouteKey() {
        return hasRouteKey;
    }

    public long routeKey() {
        return routeKey;
    }

    /** What the last selection's sticky lookup found (filled by {@link RealSelector#select}). */
    public StickySighting sighting() {
        return sighting;
    }

    /** 0 when the request is not bound to a real. */
    public long boundRealId() {
        return boundRealId;
    }
}
