package io.mclb.vserver;

import io.mclb.farm.RealServer;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;

/**
 * Picks the real for new work: the sticky entry's real when it can take work, otherwise the
 * primary farm's predictor, otherwise the backup farm (used only when no primary real can take
 * work); writes or re-points the sticky entry. One instance per event loop (it reuses its
 * {@link StickyValue}); the sticky table and farms it reads are shared and thread-safe.
 */
public final class Assigner {
    private final StickyTable sticky;
    private final StickyValue value = new StickyValue();

    /** Set by {@link #assign}: whether the chosen real came from the sticky entry. */
    private boolean lastStickyHit;

    public Assigner(StickyTable sticky) {
        this.sticky = sticky;
    }

    /**
     * @param key          sticky key filled by the caller, or null when the virtual server is not sticky
     * @param stickySeconds lifetime written into a new or refreshed entry
     * @param exclude      a real not to use (the one a request is being reassigned from), or null
     * @return the acquired real ({@link RealServer#tryAcquire} succeeded), or null if none can take work
     */
    public RealServer assign(VserverSnapshot s, StickyKey key, int stickySeconds, RealServer exclude, long nowNs,
                             long nowEpochMillis) {
        return assign(s, key, stickySeconds, exclude, nowNs, nowEpochMillis, true);
    }

    /**
     * @param writeEntry false when the entry is written later, once the real accepted (e.g. GTP
     *                   creates are sticky only when the GGSN accepts them)
     */
    public RealServer assign(VserverSnapshot s, StickyKey key, int stickySeconds, RealServer exclude, long nowNs,
                             long nowEpochMillis, boolean writeEntry) {
        lastStickyHit = false;
        if (key != null && sticky.get(key, value, nowEpochMillis)) {
            RealServer r = s.realById(value.realId());
            if (r != null && r != exclude && r.isEligible(nowNs, false) && r.tryAcquire(nowNs, false)) {
                lastStickyHit = true;
                refresh(key, r.id(), value.createdEpochSeconds(), stickySeconds, nowEpochMillis);
                return r;
            }
        }
        boolean newClient = key != null;
        RealServer r = s.farm().pickAndAcquire(nowNs, exclude, newClient);
        boolean fromBackup = false;
        if (r == null && s.backup() != null) {
            r = s.backup().pickAndAcquire(nowNs, exclude, newClient);
            fromBackup = true;
        }
        if (r != null && key != null && writeEntry && (!fromBackup || s.config().backupSticky())) {
            long nowS = nowEpochMillis / 1000;
            sticky.put(key, value.set(r.id(), nowS, nowS + stickySeconds));
        }
        return r;
    }

    /** Re-reads the entry for {@code key} and extends it if it still names {@code realId}. */
    public void touch(StickyKey key, long realId, int stickySeconds, long nowEpochMillis) {
        if (sticky.get(key, value, nowEpochMillis) && value.realId() == realId) {
            refresh(key, realId, value.createdEpochSeconds(), stickySeconds, nowEpochMillis);
        }
    }

    /** Writes (or re-points) the entry for {@code key} to {@code realId}. */
    public void write(StickyKey key, long realId, int stickySeconds, long nowEpochMillis) {
        long nowS = nowEpochMillis / 1000;
        sticky.put(key, value.set(realId, nowS, nowS + stickySeconds));
    }

    public boolean lastStickyHit() {
        return lastStickyHit;
    }

    /** Pushes an entry's expiry forward; skipped when it moved less than a second (saves writes). */
    public void refresh(StickyKey key, long realId, long createdEpochSeconds, int stickySeconds, long nowEpochMillis) {
        long wanted = nowEpochMillis / 1000 + stickySeconds;
        if (value.realId() == realId && wanted - value.expiresEpochSeconds() < 1) {
            return;
        }
        sticky.put(key, value.set(realId, createdEpochSeconds, wanted));
    }
}
