package io.mclb.select;

import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.sticky.Hashing;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyRefresh;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import io.mclb.vserver.VserverSnapshot;

import java.net.InetAddress;
import java.util.function.LongFunction;

/**
 * Choosing a real: the one step every new request or flow of every service goes through, in this
 * order (DESIGN section 3):
 * <ol>
 * <li>client rules ({@link #admits}: {@code client IP MASK [exclude]});</li>
 * <li>a follow-up's own real (a session learnt earlier), when it can take work;</li>
 * <li>a keyed predictor ({@code predictor route-map}): the request's own key names its real, so it
 *     wins over a remembered choice;</li>
 * <li>the subscriber's sticky entry, across farms and sticky groups: an entry written through
 *     another farm (the auth virtual server's) finds the real with the same address in this one;</li>
 * <li>the primary farm's predictor, then the backup farm's (only when no primary real can take
 *     work); the sticky entry is written (or re-pointed) with the choice.</li>
 * </ol>
 * Steps 2 and 4 use {@link RealServer#tryAcquireHeld}: a real at weight 0 (DFP_THROTTLED) takes no new
 * subscriber but keeps serving the ones it holds. A new sticky subscriber takes exactly one predictor decision even when its first requests race
 * on two loops ({@link SubscriberClaims}).
 *
 * <p>One instance per relay (it reuses its key and value flyweights); the farms, the sticky table
 * and the claims are shared and thread-safe.
 */
public final class RealSelector {
    private final StickyTable sticky;
    private final LongFunction<RealServer> directory;
    private final SubscriberClaims claims;
    private final StickyValue value = new StickyValue();
    private final StickyValue ours = new StickyValue();

    /**
     * @param directory every real of the running balancer by id (entries name reals of other farms)
     */
    public RealSelector(StickyTable sticky, LongFunction<RealServer> directory, SubscriberClaims claims) {
        this.sticky = sticky;
        this.directory = directory;
        this.claims = claims;
    }

    /** Client rules: the most specific {@code client} rule decides (see {@code VirtualServerConfig#admits}). */
    public boolean admits(VserverSnapshot s, InetAddress client) {
        return s.config().admits(client);
    }

    /**
     * Chooses and acquires ({@link RealServer#tryAcquire}) the real for {@code sel}.
     *
     * @param exclude a real not to use (the one a request is being moved off), or null
     * @return the acquired real (the caller releases it), or null when none can take work
     */
    public RealServer select(VserverSnapshot s, Selection sel, RealServer exclude, long nowNs, long nowEpochMillis) {
        if (sel.boundRealId() != 0) {
            RealServer r = s.realById(sel.boundRealId());
            if (r != null && r != exclude && r.tryAcquireHeld(nowNs)) {
                return r;
            }
        }
        boolean newClient = sel.isSticky();
        if (sel.hasRouteKey() && s.farm().keyed()) {
            // not written to the sticky table: the key itself finds the same real next time
            RealServer r = s.farm().pickAndAcquire(candidates(s), nowNs, exclude, newClient, sel.routeKey());
            if (r != null) {
                return r;
            }
        }
        if (!sel.isSticky()) {
            return predict(s, sel, exclude, newClient, nowNs);
        }
        StickyKey key = sel.stickyKey();
        RealServer r = fromEntry(s, sel, exclude, nowNs, nowEpochMillis);
        if (r != null || sel.stickyMode() != StickyMode.ON_ASSIGN) {
            // ON_ANSWER and LOOKUP_ONLY write nothing now, so there is no decision to share
            return r != null ? r : predict(s, sel, exclude, newClient, nowNs);
        }
        long hash = Hashing.murmur64(key.bytes(), 0, StickyKey.SIZE, 0x636c61696dL) | 1;
        SubscriberClaims.Outcome claim = claims.claim(hash);
        try {
            if (claim != SubscriberClaims.Outcome.UNCLAIMED) {
                // another loop may have decided between our miss and our claim
                r = fromEntry(s, sel, exclude, nowNs, nowEpochMillis);
                if (r != null) {
                    return r;
                }
            }
            r = predict(s, sel, exclude, newClient, nowNs);
            boolean fromBackup = r != null && !r.farmName().equals(s.farm().name());
            if (r == null || (fromBackup && !s.config().backupSticky())) {
                return r;
            }
            // even a claimed decision is written only if absent: a waiter that gave up may have written first
            return writeUnlessDecided(s, sel, r, exclude, nowNs, nowEpochMillis);
        } finally {
            if (claim == SubscriberClaims.Outcome.CLAIMED) {
                claims.release(hash);
            }
        }
    }

    /**
     * Writes the subscriber's entry unless another loop decided it meanwhile (it gave up waiting
     * for a descheduled claim holder, or the claim slot was taken): the first entry written wins
     * when its real can take the request, so both requests still meet on one real. An entry whose
     * real cannot take it (the real a request is moved off) is re-pointed.
     */
    private RealServer writeUnlessDecided(VserverSnapshot s, Selection sel, RealServer mine, RealServer exclude,
                                          long nowNs, long nowMs) {
        long nowS = nowMs / 1000;
        ours.set(mine.id(), nowS, nowS + sel.stickySeconds());
        value.set(0, 0, 0);
        if (sticky.putIfAbsent(sel.stickyKey(), ours, value, nowMs) || value.realId() == 0) {
            return mine;
        }
        RealServer theirs = s.realById(value.realId());
        if (theirs == null) {
            theirs = s.sameAddress(directory.apply(value.realId()));
        }
        if (theirs == mine) {
            return mine;
        }
        if (theirs != null && theirs != exclude && theirs.isEligibleHeld(nowNs) && theirs.tryAcquireHeld(nowNs)) {
            mine.release();
            return theirs;
        }
        // the entry names a real that cannot take it (the one the request moves off): re-point it
        sticky.put(sel.stickyKey(), ours);
        return mine;
    }

    /** The real of the subscriber's entry, when it names one of this virtual server's reals that can take work. */
    private RealServer fromEntry(VserverSnapshot s, Selection sel, RealServer exclude, long nowNs, long nowMs) {
        long version = sticky.version(); // before the read: see StickyTable#version
        if (!sticky.get(sel.stickyKey(), value, nowMs)) {
            sel.sighting().clear();
            return null;
        }
        sel.sighting().saw(version, value.realId(), value.expiresEpochSeconds());
        RealServer r = s.realById(value.realId());
        if (r == null) {
            r = s.sameAddress(directory.apply(value.realId()));
        }
        if (r == null || r == exclude || !r.isEligibleHeld(nowNs) || !r.tryAcquireHeld(nowNs)) {
            return null;
        }
        if (sel.stickyMode() == StickyMode.ON_ASSIGN) {
            // keeps the entry's own real id: one found through another farm stays that farm's entry.
            // ON_ANSWER is refreshed by the accepting answer's write ({@link #write}): extending it
            // here too cost a second table write per returning subscriber and extended it for a
            // request its real may still reject
            extend(sel.stickyKey(), value.realId(), value.createdEpochSeconds(), sel.stickySeconds(), nowMs);
        }
        return r;
    }

    private RealServer predict(VserverSnapshot s, Selection sel, RealServer exclude, boolean newClient, long nowNs) {
        ServerFarm primary = s.farm();
        RealServer r = primary.keyed() ? null
                : primary.pickAndAcquire(primary.reals(), nowNs, exclude, newClient, sel.routeKey());
        if (r == null && s.backup() != null) {
            r = s.backup().pickAndAcquire(s.backup().reals(), nowNs, exclude, newClient, sel.routeKey());
        }
        return r;
    }

    /**
     * What a keyed primary farm chooses among: its own reals, or, for a route map (which takes
     * none, IOS), the backup farm's, where the next hops live.
     */
    private static RealServer[] candidates(VserverSnapshot s) {
        RealServer[] own = s.farm().reals();
        return own.length == 0 && s.backup() != null ? s.backup().reals() : own;
    }

    /** Writes (or re-points) the entry for {@code key} to {@code realId}, e.g. once a GTP create was accepted. */
    public void write(StickyKey key, long realId, int stickySeconds, long nowEpochMillis) {
        long nowS = nowEpochMillis / 1000;
        sticky.put(key, value.set(realId, nowS, nowS + stickySeconds));
    }

    /**
     * Whether the accepting answer of a {@link StickyMode#ON_ANSWER} request still has to
     * {@link #write} its entry: not when the entry its request read ({@code seen}) already names
     * {@code realId}, nothing has removed or re-pointed entries since, and its expiry is within
     * {@link io.mclb.sticky.StickyRefresh#slackSeconds} of what the write would store.
     */
    public boolean writeDue(StickySighting seen, long realId, int stickySeconds, long nowEpochMillis) {
        return !seen.holds(sticky, realId, stickySeconds, nowEpochMillis);
    }

    /** Re-reads the entry for {@code key} and extends it if it still names {@code realId} (a flow ended). */
    public void touch(StickyKey key, long realId, int stickySeconds, long nowEpochMillis) {
        if (sticky.get(key, value, nowEpochMillis) && value.realId() == realId) {
            extend(key, realId, value.createdEpochSeconds(), stickySeconds, nowEpochMillis);
        }
    }

    /**
     * Pushes an entry's expiry forward; skipped while it lags by less than the refresh slack
     * ({@link io.mclb.sticky.StickyRefresh}: at most 60 s, 1/16 of the timeout), so a busy subscriber
     * costs one write a minute, not one per request.
     */
    private void extend(StickyKey key, long realId, long createdEpochSeconds, int stickySeconds, long nowMs) {
        if (value.realId() == realId && !StickyRefresh.due(value.expiresEpochSeconds(), stickySeconds, nowMs)) {
            return;
        }
        sticky.put(key, value.set(realId, createdEpochSeconds, nowMs / 1000 + stickySeconds));
    }
}
