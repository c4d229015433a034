package io.mclb.sticky;

import java.util.function.BiPredicate;

/**
 * All sticky entries of one mclb (every kind and group, told apart by the key's first bytes):
 * off heap, persisted under the data directory, shared by every event loop. Thread-safe.
 * Every change is published to the registered {@link StickyChangeListener}s.
 */
public interface StickyTable extends AutoCloseable {

    /**
     * Looks a key up. Fills {@code out} and returns true when an entry exists and has not expired
     * at {@code nowEpochMillis}. Allocates nothing.
     */
    boolean get(StickyKey key, StickyValue out, long nowEpochMillis);

    /**
     * Writes an entry (new or refreshed) and publishes it.
     *
     * @return false when the table is full: nothing was written or published, and
     *         {@link #refusedFull()} counts it. The caller carries on without the entry (the
     *         request is still balanced, just not sticky): a full table must never drop traffic.
     */
    boolean put(StickyKey key, StickyValue value);

    /**
     * Writes an entry only when the key has none that is live at {@code nowEpochMillis}
     * (one expired but not yet swept is replaced), atomically; publishes what it wrote.
     *
     * @param existing filled with the live entry when there is one
     * @return true when written; false when {@code existing} holds the live entry, or the table is full
     *         ({@code existing} then holds no entry: check {@link #get})
     */
    boolean putIfAbsent(StickyKey key, StickyValue value, StickyValue existing, long nowEpochMillis);

    /**
     * {@link #putIfAbsent}, except that a live entry is also replaced when it names another real
     * than {@code value} or is no longer current for a write of {@code stickySeconds}
     * ({@link StickyRefresh#current}): a learner's "write unless it would change nothing" as one
     * update-locked query, where a {@code putIfAbsent} and then a {@code put} were two (and left a
     * moment between them for another writer).
     *
     * @param existing filled with the live entry when it is kept
     * @return true when written; false when {@code existing} holds the live entry kept, or the
     *         table is full ({@code existing} then holds no entry)
     */
    boolean putUnlessCurrent(StickyKey key, StickyValue value, int stickySeconds, StickyValue existing,
            long nowEpochMillis);

    /**
     * What a reader may keep relying on, so that a write which would change nothing can be skipped
     * (the accepting answer of a returning subscriber's GTP create, {@link StickyRefresh}): -1 while
     * a change that can make an earlier read wrong is under way, otherwise a count that grows with
     * each such change. Those changes are every removal (deleted, purged, expired, replicated,
     * {@code clear sticky}) and every write that names another real or stores an earlier expiry;
     * new keys and later expiries are not. So an entry read after {@code version()} returned
     * {@code v >= 0} still exists, names the same real and expires no earlier for as long as
     * {@code version()} returns {@code v}. Two volatile reads; allocates nothing.
     */
    long version();

    /** Puts refused because the table was full, since it was opened. */
    long refusedFull();

    /**
     * Entries the table was created for ({@code mclb sticky entries} when the file was made). Chronicle
     * takes somewhat more before it refuses, so {@link #size()} near this is the time to resize.
     */
    long capacity();

    /** Removes an entry if present and publishes the removal; true if it was present. */
    boolean remove(StickyKey key, StickyChangeListener.RemoveReason reason);

    /**
     * Removes every entry the predicate selects (e.g. all entries of a failed real), publishing
     * each removal. Walks the whole table: an administrative action, not for the data path.
     *
     * @return entries removed
     */
    int removeIf(BiPredicate<StickyKey, StickyValue> which, StickyChangeListener.RemoveReason reason);

    /** Removes entries expired at {@code nowEpochMillis}; returns how many. Run by a sweeper. */
    int expire(long nowEpochMillis);

    /**
     * Removes expired entries from one slice of the table ({@code slice} of {@code slices}), so a
     * sweeper can spread the walk over time instead of scanning millions of entries at once.
     * Default: the whole table on slice 0.
     */
    default int expireSlice(long nowEpochMillis, int slice, int slices) {
        return slice == 0 ? expire(nowEpochMillis) : 0;
    }

    /** Visits entries (copies, safe to keep) until the visitor returns false. */
    void forEach(BiPredicate<StickyKey, StickyValue> visitor);

    /** Entries currently stored, expired-but-not-swept included. */
    long size();

    /** Entries per kind, maintained on every change (for {@code mclb_sticky_entries}). */
    long size(StickyKind kind);

    void addListener(StickyChangeListener listener);

    void removeListener(StickyChangeListener listener);

    /** Flushes and closes; a clean close lets the next start skip recovery. */
    @Override
    void close();
}
