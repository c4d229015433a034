package io.mclb.binding;

import io.mclb.farm.RealServer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import org.jctools.maps.NonBlockingHashMapLong;

/**
 * The established bindings of one kind: one per subscriber key (an owner, e.g. the IMSI, and a
 * sub-key, e.g. the NSAPI), on one real, holding exactly one of that real's connections (the one
 * the engine kept on {@code FORWARD_SESSION}). This is what {@code predictor leastconns} balances
 * on, so it must stay true: a binding ends on {@link #close} (a delete seen through mclb),
 * {@link #expire} (idle past its lifetime), or {@link #purge} (the real restarted), and exactly one
 * of those releases the real's connection (the {@code remove(key, binding)} that wins).
 *
 * <p>An optional alias indexes a binding by a second key the real chose (a GGSN's control TEID):
 * aliases are assumed unique across the farm; a collision is last-writer-wins and counted.
 *
 * <p>Shared by every virtual server and event loop of the module; lock-free for readers (alias writers hold one of 64 segment words for a probe, {@link AliasIndex}). Touched per
 * subscriber event, never walked per datagram: the walks run on the runtime's ager and on purges.
 * The bindings are in JCTools' {@link NonBlockingHashMapLong} by key (open addressing over a
 * {@code long[]} of keys and an array of values, CAS per slot), not a {@code ConcurrentHashMap<Long, B>}:
 * no boxed key per lookup or change and no node per entry, so a create that opens or replaces a
 * binding allocates nothing here once the table has grown, and an entry costs about a third of
 * the heap. A subscriber's key comes back with the subscriber, so its slot is reused. Aliases do
 * not come back (a renewal brings a new TEID), so they are an {@link AliasIndex} from the alias
 * to the binding's key: primitive, its removed slots reused, and no reference stored per renewal.
 * The indexes stay shared rather than per loop because a binding is reached from every loop (an
 * SGSN's follow-ups hash to any loop, HA replication, the ager and purges write too).
 *
 * @param <B> the module's binding type
 */
public final class BindingTable<B extends Binding> {

    /**
     * Told of every binding that starts and ends (the HA replicator). Called on the thread that
     * made the change (an event loop, the ager): must not block and should not allocate.
     */
    public interface ChangeListener {
        ChangeListener NONE = new ChangeListener() {
            @Override
            public void opened(BindingTable<?> table, Binding b) {
            }

            @Override
            public void closed(BindingTable<?> table, Binding b) {
            }
        };

        /** {@code b} started, or (sent again by the ager) requests moved its expiry well past the last one sent. */
        void opened(BindingTable<?> table, Binding b);

        void closed(BindingTable<?> table, Binding b);
    }

    /** Smallest expiry move the ager re-sends: below it a standby's copy cannot expire first in practice. */
    private static final long REFRESH_SLACK_MIN_NS = 1_000_000_000L;
    /** Bounds of the ager's period for a table ({@link #walkDue}): a second, and ten. */
    static final long WALK_MIN_NS = 1_000_000_000L;
    static final long WALK_MAX_NS = 10_000_000_000L;

    private final BindingKind<B> kind;
    private final NonBlockingHashMapLong<B> byKey = new NonBlockingHashMapLong<>();
    /** Alias -> {@link #key} of the binding that holds it; an entry stays only while that binding does ({@link #holdsAlias}). */
    private final AliasIndex byAlias = new AliasIndex(this::holdsAlias);
    private final LongAdder aliasCollisions = new LongAdder();
    private volatile ChangeListener listener = ChangeListener.NONE;
    /** The shortest idle time of any binding opened so far: it sets how often the ager must walk. */
    private final AtomicLong shortestIdleNs = new AtomicLong(Long.MAX_VALUE);
    /** When the ager walks next ({@link #walkDue}); the ager's thread only. */
    private long nextWalkNs;
    private boolean walked;

    public BindingTable(BindingKind<B> kind) {
        this.kind = kind;
    }

    public BindingKind<B> kind() {
        return kind;
    }

    /** Sets the one change listener (null: none). */
    public void listener(ChangeListener l) {
        listener = l == null ? ChangeListener.NONE : l;
    }

    /**
     * The map key of (owner, sub); the binding itself is compared on lookup so a hash clash cannot
     * mix subscribers. Never 0, the alias index's {@link AliasIndex#MISSING}.
     */
    static long key(long owner, int sub) {
        long h = owner * 0x9E3779B97F4A7C15L;
        long k = (h ^ (h >>> 29)) * 31 + sub;
        return k == AliasIndex.MISSING ? 1 : k;
    }

    private static long key(Binding b) {
        return key(b.owner(), b.sub());
    }

    /**
     * Whether the entry {@code alias -> k} must stay in the alias index: the binding now under
     * {@code k} has not ended and holds {@code alias}. Asked when a binding leaves the index, which
     * can run late on another thread (the close of a predecessor that a re-open with the same TEID
     * replaced); a binding that ended, or renewed away from the alias, does not hold it.
     */
    private boolean holdsAlias(long k, long alias) {
        B b = byKey.get(k);
        return b != null && b.claimedGeneration() != Binding.ENDED && b.alias() == alias;
    }

    /**
     * Records an established binding. A previous one with the same key is ended first (its real's
     * connection released): the subscriber re-established it, possibly elsewhere. Only the caller
     * that ends a binding ({@link Binding#generation()} to {@link Binding#ENDED}) takes it out of the
     * indexes, so a renewal or a close racing this open on another thread never undoes it.
     */
    public B open(B b) {
        long k = key(b.owner(), b.sub());
        B mine = null; // the predecessor this call ended, released once even if another open replaces it first
        for (;;) {
            B prev = byKey.get(k);
            if (prev == null) {
                if (byKey.putIfAbsent(k, b) == null) {
                    break;
                }
                continue;
            }
            if (prev != mine && prev.endNow()) {
                unindex(prev);
                prev.real().release();
                mine = prev;
            } // else ended by a close under way, which releases it
            if (byKey.replace(k, prev, b)) {
                break;
            }
        }
        index(b);
        for (long s = shortestIdleNs.get(); b.idleNs() < s && !shortestIdleNs.compareAndSet(s, b.idleNs()); ) {
            s = shortestIdleNs.get(); // lowered by another open meanwhile: compare with the new shortest
        }
        listener.opened(this, b);
        return b;
    }

    /**
     * Whether the ager's walk of this table is due at {@code nowNs}, and if so when the next one
     * is: every sixteenth of the shortest idle time among its bindings, between one and ten
     * seconds. A walk costs 100-150 ns a binding whether or not anything expired (0.1-0.15 s of
     * CPU a second at a million GTP sessions with the default hour), so a table of long-lived
     * bindings is walked every ten seconds instead of every second; a binding then ends at most
     * that period after its idle time ran out, and the standby's expiries (re-sent once they moved
     * by an eighth of the idle time) stay ahead of it. Called by the ager's one thread.
     */
    boolean walkDue(long nowNs) {
        if (walked && nowNs - nextWalkNs < 0) {
            return false;
        }
        walked = true;
        nextWalkNs = nowNs + Math.max(WALK_MIN_NS, Math.min(WALK_MAX_NS, shortestIdleNs.get() / 16));
        return true;
    }

    private void index(B b) {
        long alias = b.alias();
        if (alias != 0) {
            long k = key(b);
            long was = byAlias.put(alias, k);
            if (was != AliasIndex.MISSING && was != k) {
                B other = byKey.get(was);
                if (other != null && other.real() != b.real()) {
                    aliasCollisions.increment();
                }
            }
        }
    }

    /**
     * Starts renewing {@code b} in place: the same subscriber re-established it on the same real, and
     * {@code b} stands for the new context from {@link #finishRenewal} on. Between the two the module
     * rewrites its own fields; no close, purge or expiry can end {@code b} meanwhile, and those that
     * captured the old context's generation fail afterwards. False (nothing changed) if {@code b}
     * ended, is being renewed by another thread, or is not this table's binding for its key: the
     * caller then opens a new binding. The real's connection stays the one {@code b} holds.
     */
    public boolean startRenewal(B b) {
        int g = b.claimedGeneration(); // never waits: another renewal under way fails the claim
        if (!b.claimRenewal(g)) {
            return false;
        }
        if (byKey.get(key(b.owner(), b.sub())) != b) { // a binding never opened here: leave it as it was
            b.abandonRenewal(g);
            return false;
        }
        return true;
    }

    /** Ends the renewal {@link #startRenewal} began: {@code b} is now indexed by {@code alias}, idle from {@code nowNs}. */
    public void finishRenewal(B b, long alias, long nowNs) {
        long old = b.alias();
        int g = b.claimedGeneration() - 1;
        b.renewed(alias, nowNs); // first: the old alias's entry then names a binding that no longer holds it
        if (old != alias && old != 0) {
            byAlias.remove(old, key(b));
        }
        if (old != alias) {
            index(b);
        }
        b.publishRenewal(g);
        listener.opened(this, b);
    }

    /**
     * A binding received from the HA active node: it keeps the active's remaining idle time and
     * holds one of its real's connections like one opened here ({@link RealServer#holdReplicated}),
     * so the per-real counts match the active's. The same binding again (a refresh) only moves the
     * expiry.
     *
     * @return the binding now in the table
     */
    public B openReplicated(B b, long nowNs, long remainingNs) {
        B same = get(b.owner(), b.sub());
        if (same != null && same.real() == b.real() && same.alias() == b.alias() && same.sameStateAs(b)) {
            same.expiresIn(nowNs, remainingNs);
            return same;
        }
        b.expiresIn(nowNs, remainingNs);
        b.real().holdReplicated();
        return open(b);
    }

    /** {@code b}, still in the table, changed in place: the listener sends it again (the HA standby replaces its copy). */
    public void changed(B b) {
        if (get(b.owner(), b.sub()) == b) {
            listener.opened(this, b);
        }
    }

    public B get(long owner, int sub) {
        B b = byKey.get(key(owner, sub));
        return b != null && b.owner() == owner && b.sub() == sub ? b : null;
    }

    /** The binding with this alias, or null. */
    public B byAlias(long alias) {
        long k = byAlias.get(alias);
        if (k == AliasIndex.MISSING) {
            return null;
        }
        B b = byKey.get(k);
        return b != null && b.alias() == alias ? b : null; // else renewed or replaced since the entry was read
    }

    /** Ends a binding, whatever context it stands for now; true (and the real's connection released) only for the call that ended it. */
    public boolean close(B b) {
        return b != null && b.endNow() && ended(b);
    }

    /**
     * Ends {@code b} only if it still stands for the context of {@code generation} (captured when the
     * caller's transaction started, {@link Binding#generation()}): a delete of a context the
     * subscriber has since re-created in place ({@link #startRenewal}) ends nothing.
     */
    public boolean close(B b, int generation) {
        return b != null && b.end(generation) && ended(b);
    }

    /** The caller ended {@code b}: it leaves the indexes, its real's connection is released, the listener told. */
    private boolean ended(B b) {
        byKey.remove(key(b), b);
        unindex(b);
        b.real().release();
        listener.closed(this, b);
        return true;
    }

    private void unindex(B b) {
        if (b.alias() != 0) {
            byAlias.remove(b.alias(), key(b));
        }
    }

    /**
     * Ends every binding idle past its expiry; returns how many. With a listener it also re-sends
     * the bindings whose expiry requests moved by more than an eighth of their idle time (at least
     * a second) since they were last sent, so the ager, not the data path, keeps the standby's
     * expiries current.
     */
    public int expire(long nowNs) {
        ChangeListener l = listener;
        int n = 0;
        for (B b : byKey.values()) {
            int g = b.generation(); // before the expiry: a renewal after this read moves it and fails the end
            if (nowNs - b.expiresNs() >= 0) {
                if (b.end(g) && ended(b)) {
                    n++;
                }
            } else if (l != ChangeListener.NONE
                    && b.expiryMovedPast(Math.max(REFRESH_SLACK_MIN_NS, b.idleNs() / 8))) {
                l.opened(this, b);
            }
        }
        return n;
    }

    /** Visits every binding (the replication's snapshot); weakly consistent, like the map. */
    public void forEach(java.util.function.Consumer<B> visitor) {
        byKey.values().forEach(visitor);
    }

    /** Ends every binding on the real with id {@code realId} (it restarted); returns how many. */
    public int purge(long realId) {
        return closeIf(b -> b.real().id() == realId);
    }

    /** Ends every binding of {@code owner} on {@code realId}; walks the table. */
    public int closeOwner(long owner, long realId) {
        return closeIf(b -> b.owner() == owner && b.real().id() == realId);
    }

    /** Ends every binding {@code which} selects; returns how many. Walks the table. */
    public int closeIf(Predicate<B> which) {
        int n = 0;
        for (B b : byKey.values()) {
            for (int g = b.generation(); g != Binding.ENDED && which.test(b); g = b.generation()) {
                if (b.end(g)) { // else renewed since the test: test the new context again
                    ended(b);
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    public int size() {
        return byKey.size();
    }

    public long aliasCollisions() {
        return aliasCollisions.sum();
    }

    /** Bindings per real id now (show commands). Walks the table. */
    public Map<Long, Integer> perReal() {
        Map<Long, Integer> out = new HashMap<>();
        for (B b : byKey.values()) {
            out.merge(b.real().id(), 1, Integer::sum);
        }
        return out;
    }

    /** A snapshot of every binding (show commands, replication). */
    public List<B> snapshot() {
        return List.copyOf(byKey.values());
    }
}
