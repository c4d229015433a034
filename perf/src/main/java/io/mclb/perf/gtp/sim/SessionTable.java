package io.mclb.perf.gtp.sim;

/**
 * The simulator's PDP contexts / sessions of one GTP version: an identifier the simulator allocated
 * (TEID-C for v1/v2, Flow Label Signalling for v0) and the subscriber key (IMSI+NSAPI, IMSI+EBI,
 * or the v0 TID), each mapping to the other plus the peer's own control identifier (the TEID /
 * flow label the response must carry). A create for a subscriber that already has a session
 * replaces it, as a GGSN does for a repeated activation, so the table never holds more sessions
 * than distinct subscribers; one that repeats the peer's id too is a retransmission and keeps the
 * session and its id.
 *
 * <p>Not thread-safe: the simulator's event loop owns it.
 */
final class SessionTable {
    /** Returned when no session matches. */
    static final long NONE = -1L;

    private final LongLongMap byId;
    /** id -> the address key of the GGSN socket that created it (only when indexed by id). */
    private final LongLongMap ownerById;
    private final LongLongMap bySubscriber;
    private final boolean indexById;
    private final int idMask;
    private int nextId = 1;

    /**
     * @param idBits 32 for TEIDs, 16 for v0 flow labels (then sessions are found by subscriber only,
     *               because 16-bit labels repeat once more than 65535 sessions exist)
     */
    SessionTable(int idBits, int expected) {
        this.indexById = idBits == 32;
        this.idMask = idBits == 32 ? -1 : (1 << idBits) - 1;
        this.byId = new LongLongMap(indexById ? expected : 16);
        this.ownerById = new LongLongMap(indexById ? expected : 16);
        this.bySubscriber = new LongLongMap(expected);
    }

    /** Opens (or replaces) the session of {@code subscriber}; returns the new non-zero id. */
    int create(long subscriber, int peerId) {
        return create(subscriber, peerId, 0);
    }

    /**
     * {@link #create} by the simulated GGSN whose address key is {@code owner}: the session then
     * exists only at that GGSN ({@link #peerOf}, {@link #deleteById(int, int)}), as on real GGSNs
     * that share no state, so a follow-up routed to another GGSN is answered "context not found".
     */
    int create(long subscriber, int peerId, int owner) {
        long same = bySubscriber.get(subscriber);
        if (same != LongLongMap.MISSING && (int) same == peerId && (!indexById || ownedBy((int) (same >>> 32), owner))) {
            // the same context with the same peer id again: a retransmission of a create already served,
            // answered with the same id as a GGSN does (29.060 / 29.274 section 7.6), not a new context
            return (int) (same >>> 32);
        }
        int id = nextId;
        nextId = (nextId + 1) & idMask;
        if (nextId == 0) {
            nextId = 1;
        }
        long old = bySubscriber.put(subscriber, ((long) id << 32) | (peerId & 0xFFFFFFFFL));
        if (indexById) {
            if (old != LongLongMap.MISSING) {
                byId.remove(old >>> 32);
                ownerById.remove(old >>> 32);
            }
            byId.put(id & 0xFFFFFFFFL, subscriber);
            ownerById.put(id & 0xFFFFFFFFL, owner);
        }
        return id;
    }

    /** The peer's id of session {@code id} if GGSN {@code owner} holds it (0: any), else {@link #NONE}. */
    long peerOf(int id, int owner) {
        long subscriber = byId.get(id & 0xFFFFFFFFL);
        if (subscriber == LongLongMap.MISSING || !ownedBy(id, owner)) {
            return NONE;
        }
        long v = bySubscriber.get(subscriber);
        return v == LongLongMap.MISSING ? NONE : v & 0xFFFFFFFFL;
    }

    private boolean ownedBy(int id, int owner) {
        return owner == 0 || ownerById.get(id & 0xFFFFFFFFL) == owner;
    }

    /** {@link #deleteById(int)} at GGSN {@code owner} only (0: any). */
    long deleteById(int id, int owner) {
        return ownedBy(id, owner) ? deleteById(id) : NONE;
    }

    /** Closes the session with {@code id}; the peer's id (unsigned 32 bits) or {@link #NONE}. */
    long deleteById(int id) {
        if (!indexById) {
            throw new IllegalStateException("table not indexed by id");
        }
        long subscriber = byId.remove(id & 0xFFFFFFFFL);
        if (subscriber == LongLongMap.MISSING) {
            return NONE;
        }
        ownerById.remove(id & 0xFFFFFFFFL);
        long v = bySubscriber.remove(subscriber);
        return v == LongLongMap.MISSING ? NONE : v & 0xFFFFFFFFL;
    }

    /** Closes the session of {@code subscriber}; the peer's id (unsigned 32 bits) or {@link #NONE}. */
    long deleteBySubscriber(long subscriber) {
        long v = bySubscriber.remove(subscriber);
        if (v == LongLongMap.MISSING) {
            return NONE;
        }
        if (indexById) {
            byId.remove(v >>> 32);
            ownerById.remove(v >>> 32);
        }
        return v & 0xFFFFFFFFL;
    }

    int size() {
        return bySubscriber.size();
    }

    void clear() {
        byId.clear();
        ownerById.clear();
        bySubscriber.clear();
    }
}
