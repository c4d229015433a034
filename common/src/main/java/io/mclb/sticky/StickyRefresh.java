package io.mclb.sticky;

/**
 * When an entry that already names the right real is worth rewriting just to push its expiry
 * forward. A write is the dearest step of a sticky request (an update-locked Chronicle query, the
 * listeners, a change streamed to the HA standby), so a subscriber that comes back many times a
 * minute costs at most one refresh write a minute instead of one per request.
 *
 * <p>The price is a bounded early expiry: an entry lives at least {@code stickySeconds -}
 * {@link #slackSeconds} after its subscriber's last request (3,540 s of a 3,600 s timeout, 57 s of
 * 60 s), and never longer than {@code stickySeconds}. The standby sees the same stored expiry.
 */
public final class StickyRefresh {
    /** At most this many seconds of a timeout are given up to save writes. */
    public static final int MAX_SLACK_SECONDS = 60;
    /** At most this fraction (1/16) of the timeout. */
    private static final int SLACK_DIVISOR = 16;

    private StickyRefresh() {
    }

    /** How far a stored expiry may lag {@code now + stickySeconds} before it is rewritten: 1..60 s. */
    public static long slackSeconds(int stickySeconds) {
        return Math.max(1, Math.min(MAX_SLACK_SECONDS, stickySeconds / SLACK_DIVISOR));
    }

    /**
     * Whether an entry expiring at {@code storedExpiresS} is to be extended to {@code now + stickySeconds}:
     * it lags by the slack or more. An entry that outlives that (written through another virtual
     * server with a longer timeout) is never shortened by an extension.
     */
    public static boolean due(long storedExpiresS, int stickySeconds, long nowEpochMillis) {
        return lag(storedExpiresS, stickySeconds, nowEpochMillis) >= slackSeconds(stickySeconds);
    }

    /**
     * Whether a write of {@code now + stickySeconds} would store what is stored, give or take the
     * slack: it lags by less than the slack and does not outlive the timeout (a write shortens an
     * entry a reload or another virtual server made longer, so skipping it must not keep that).
     */
    public static boolean current(long storedExpiresS, int stickySeconds, long nowEpochMillis) {
        long lag = lag(storedExpiresS, stickySeconds, nowEpochMillis);
        return lag >= 0 && lag < slackSeconds(stickySeconds);
    }

    private static long lag(long storedExpiresS, int stickySeconds, long nowEpochMillis) {
        return nowEpochMillis / 1000 + stickySeconds - storedExpiresS;
    }
}
