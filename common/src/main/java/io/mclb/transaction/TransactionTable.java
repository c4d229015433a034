package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.mclb.sticky.Hashing;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.function.Consumer;

/**
 * The transactions of one relay (one virtual server on one event loop): by upstream path and id
 * for answers, by client identity for retransmissions, and in creation order for ageing.
 * Loop-confined, primitive-keyed maps: no boxing per datagram.
 *
 * <p>A path is one real's address on one of this loop's upstream sockets (path number = the
 * real's index * sockets + socket). A request takes an id on the real's current socket; when every
 * id there waits for an answer, the next socket becomes current, so a narrow id space (RADIUS)
 * scales with the number of sockets and probing stays short in steady state.
 *
 * <p>Upstream ids are allocated per path,
 * cycling through the service's id width. An id held by a transaction still waiting for its
 * answer is skipped; an id held by an answered transaction that only lingers for late
 * retransmissions is taken over (cycling order makes it the oldest on that path). So a busy path
 * never runs out of ids because of lingering transactions, and allocation stays O(1): the first
 * version skipped every id in use and, at thousands of creates per second with a 90 s linger,
 * scanned most of the 16-bit space per request.
 *
 * <p>Residual risk, as for any id-rewriting proxy: a duplicate answer the real sends for a
 * transaction whose id has since been taken over (a whole id cycle later on that path) matches
 * the new transaction. RADIUS rejects it (it fails verification against the new request
 * authenticator); for GTP it takes more than 65,536 newer requests on one path within the linger.
 *
 * <p>Transaction objects are reused ({@link #newTransaction}): a forgotten transaction returns to
 * a free list once neither queue names it any more (the queues drop forgotten entries lazily, so
 * {@link Transaction#queued} counts the entries left). Reuse happens only in {@code newTransaction},
 * i.e. at the start of a client request, never while the relay still holds a transaction it has
 * just removed (the timeout path reads it after removal). At most {@link #MAX_FREE} wait for reuse.
 * The inspector's state of a reused transaction goes back to it then ({@code retiredStates}).
 *
 * <p>A table whose ids pass through ({@link io.mclb.service.ServiceInspector.Shape#idsPassThrough},
 * Mobile IP) allocates nothing: the upstream id is the client's id, and only the socket is chosen
 * so that no two requests waiting on one path share it ({@link #assignUpstream}).
 */
final class TransactionTable {
    private final long idMask;
    /** (path, upstream id) and client identity, to a slot of {@link #bySlot}: no reference stored per request */
    private final SlotMap byUpstream = new SlotMap();
    private final SlotMap byClient = new SlotMap();
    /** every transaction object this table keeps, at its slot (written when an object is made or dropped) */
    private Transaction<?>[] bySlot = new Transaction<?>[64];
    private int slotsUsed;
    /** slots of objects dropped past {@link #MAX_FREE}, for the next new object */
    private int[] vacantSlots = new int[8];
    private int vacantCount;
    private final HashMap<InetSocketAddress, Integer> paths = new HashMap<>();
    private final int sockets;
    /** ids to probe on one path before moving on: the whole space when it is small (RADIUS) */
    private final int probesPerPath;
    private final boolean passThrough;
    private long[] nextId = new long[8];
    /** per real: the socket new requests use first */
    private int[] currentSocket = new int[8];
    /** every transaction, in creation order (request timeouts) */
    private final ArrayDeque<Transaction<?>> pending = new ArrayDeque<>();
    /** answered transactions, in answer order (linger for late retransmissions) */
    private final ArrayDeque<Transaction<?>> answered = new ArrayDeque<>();
    /** ids tried before giving up when every one is held by an unanswered request */
    private static final int MAX_PROBES = 4096;
    /** Forgotten transactions kept for reuse at most: a burst's surplus goes to the GC. */
    static final int MAX_FREE = 65536;
    /** slots of forgotten objects waiting for reuse, oldest first (a ring) */
    private int[] free = new int[64];
    private int freeHead;
    private int freeCount;
    private final Consumer<Object> retiredStates;
    private long created;
    private int live;

    TransactionTable(int idBits) {
        this(idBits, 1);
    }

    TransactionTable(int idBits, int sockets) {
        this(idBits, sockets, false);
    }

    TransactionTable(int idBits, int sockets, boolean passThrough) {
        this(idBits, sockets, passThrough, state -> { });
    }

    /** {@code retiredStates} takes the inspector's state of each transaction object as it is reused. */
    TransactionTable(int idBits, int sockets, boolean passThrough, Consumer<Object> retiredStates) {
        this.retiredStates = retiredStates;
        this.idMask = idBits >= 63 ? Long.MAX_VALUE : (1L << idBits) - 1;
        this.sockets = sockets;
        this.probesPerPath = (int) Math.min(MAX_PROBES, idMask + 1);
        this.passThrough = passThrough;
    }

    /** The upstream socket the transaction's id belongs to. */
    int socketOf(Transaction<?> tx) {
        return tx.path % sockets;
    }

    static long clientKey(InetSocketAddress client, long id, long fingerprint) {
        long h = client.getAddress().hashCode() * 0x9E3779B97F4A7C15L;
        h ^= (client.getPort() + 0x632BE59BD9B4E019L) * 0xC2B2AE3D27D4EB4FL;
        h ^= (id + 0x165667B19E3779F9L) * 0x94D049BB133111EBL;
        h ^= fingerprint * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 31);
    }

    /** The transaction of this client request, verified field by field (the key is a hash). */
    Transaction<?> byClient(long clientKey, InetSocketAddress client, long id, long fingerprint) {
        Transaction<?> tx = at(byClient.get(clientKey));
        if (tx != null && tx.originalId == id && tx.fingerprint == fingerprint && tx.client.equals(client)) {
            return tx;
        }
        return null;
    }

    /** A fresh transaction for a client request: a forgotten one reused, or a new object when none is free. */
    Transaction<?> newTransaction(InetSocketAddress client, long id, long fingerprint, long clientKey, long nowNs) {
        if (freeCount == 0) {
            created++;
            Transaction<?> tx = new Transaction<>(client, id, fingerprint, clientKey, nowNs);
            tx.slot = takeSlot(tx);
            return tx;
        }
        Transaction<?> tx = bySlot[free[freeHead]];
        freeHead = (freeHead + 1) & (free.length - 1);
        freeCount--;
        Object retired = tx.state;
        tx.reset(client, id, fingerprint, clientKey, nowNs);
        if (retired != null) {
            // only now: until its object is reused, a forgotten transaction may still be read
            retiredStates.accept(retired);
        }
        return tx;
    }

    /** Transaction objects ever created (tests: a steady load reuses them). */
    long created() {
        return created;
    }

    /**
     * Gives back a transaction from {@link #newTransaction} whose request was dropped before
     * {@link #addClient} (no real, no upstream id): it is in no map and no queue, and without this
     * its slot would hold it forever.
     */
    void abandon(Transaction<?> tx) {
        if (tx.queued == 0 && tx.target == null) {
            tx.done = true;
            recycle(tx);
        }
    }

    void addClient(Transaction<?> tx) {
        byClient.put(tx.clientKey, tx.slot);
        pending.addLast(tx);
        tx.queued++;
        live++;
    }

    /** The transaction was answered at {@code nowNs}: from now on it only lingers. */
    void answered(Transaction<?> tx, long nowNs) {
        tx.answeredNs = nowNs;
        answered.addLast(tx);
        tx.queued++;
    }

    /** {@code tx} left one of the queues: reusable once forgotten and named by neither. */
    private void dequeued(Transaction<?> tx) {
        if (--tx.queued == 0 && tx.done) {
            recycle(tx);
        }
    }

    /** {@code tx} is done and no queue names it: it waits for reuse, or goes if enough already wait. */
    private void recycle(Transaction<?> tx) {
        if (freeCount < MAX_FREE) {
            if (freeCount == free.length) {
                growFree();
            }
            free[(freeHead + freeCount) & (free.length - 1)] = tx.slot;
            freeCount++;
        } else {
            dropSlot(tx);
        }
    }

    private Transaction<?> at(int slot) {
        return slot < 0 ? null : bySlot[slot];
    }

    private int takeSlot(Transaction<?> tx) {
        int slot;
        if (vacantCount > 0) {
            slot = vacantSlots[--vacantCount];
        } else {
            if (slotsUsed == bySlot.length) {
                bySlot = Arrays.copyOf(bySlot, bySlot.length * 2);
            }
            slot = slotsUsed++;
        }
        bySlot[slot] = tx;
        return slot;
    }

    /** A burst's surplus object goes to the GC; its slot serves the next new one. */
    private void dropSlot(Transaction<?> tx) {
        bySlot[tx.slot] = null;
        if (vacantCount == vacantSlots.length) {
            vacantSlots = Arrays.copyOf(vacantSlots, vacantCount * 2);
        }
        vacantSlots[vacantCount++] = tx.slot;
    }

    private void growFree() {
        int[] next = new int[free.length * 2];
        for (int i = 0; i < freeCount; i++) {
            next[i] = free[(freeHead + i) & (free.length - 1)];
        }
        free = next;
        freeHead = 0;
    }

    /**
     * Gives {@code tx} an id on the path to {@code target}; false if the ids tried are all held by
     * requests still waiting for their answer.
     */
    boolean assignUpstream(Transaction<?> tx, RealServer real, InetSocketAddress target) {
        int base = baseOf(target);
        if (passThrough) {
            return assignOwnId(tx, real, target, base);
        }
        int first = currentSocket[base];
        for (int n = 0; n < sockets; n++) {
            int socket = (first + n) % sockets;
            int path = base * sockets + socket;
            long id = nextId[path];
            for (int probe = 0; probe < probesPerPath; probe++) {
                long k = upstreamKey(path, id);
                Transaction<?> holder = at(byUpstream.get(k));
                if (holder == null || holder.answered) {
                    if (holder != null) {
                        retire(holder); // a lingering answered transaction gives its id up
                    }
                    nextId[path] = (id + 1) & idMask;
                    currentSocket[base] = socket;
                    tx.real = real;
                    tx.target = target;
                    tx.path = path;
                    tx.upstreamId = id;
                    byUpstream.put(k, tx.slot);
                    return true;
                }
                id = (id + 1) & idMask;
            }
        }
        return false;
    }

    /**
     * Pass-through ids: the client's own id on the first of the real's sockets where no request
     * still waiting holds it (a lingering answered one gives it up); false when every socket's
     * path has it waiting. The current socket is not moved: the id, not the load, decides.
     */
    private boolean assignOwnId(Transaction<?> tx, RealServer real, InetSocketAddress target, int base) {
        long id = tx.originalId & idMask;
        for (int socket = 0; socket < sockets; socket++) {
            int path = base * sockets + socket;
            long k = upstreamKey(path, id);
            Transaction<?> holder = at(byUpstream.get(k));
            if (holder == null || holder.answered) {
                if (holder != null) {
                    retire(holder);
                }
                tx.real = real;
                tx.target = target;
                tx.path = path;
                tx.upstreamId = id;
                byUpstream.put(k, tx.slot);
                return true;
            }
        }
        return false;
    }

    boolean passesIdsThrough() {
        return passThrough;
    }

    void removeUpstream(Transaction<?> tx) {
        if (tx.target == null) {
            return;
        }
        byUpstream.remove(upstreamKey(tx.path, tx.upstreamId), tx.slot);
    }

    Transaction<?> byUpstream(InetSocketAddress sender, long id) {
        return byUpstream(0, sender, id);
    }

    /** The transaction a real's answer on upstream socket {@code socket} belongs to, or null. */
    Transaction<?> byUpstream(int socket, InetSocketAddress sender, long id) {
        Integer base = paths.get(sender);
        if (base == null || socket < 0 || socket >= sockets) {
            return null;
        }
        return at(byUpstream.get(upstreamKey(base * sockets + socket, id & idMask)));
    }

    /** The oldest transaction still waiting for an answer (answered ones are skipped and dropped from this order). */
    Transaction<?> oldestPending() {
        Transaction<?> tx;
        while ((tx = pending.peekFirst()) != null && (tx.answered || tx.done)) {
            pending.pollFirst();
            dequeued(tx);
        }
        return tx;
    }

    /** Removes the oldest pending transaction (it timed out); the caller may still read it until its next request. */
    void removeOldestPending() {
        Transaction<?> tx = pending.pollFirst();
        if (tx != null) {
            retire(tx);
            dequeued(tx);
        }
    }

    /** The answered transaction that has lingered longest, or null. */
    Transaction<?> oldestAnswered() {
        Transaction<?> tx;
        while ((tx = answered.peekFirst()) != null && tx.done) {
            answered.pollFirst();
            dequeued(tx);
        }
        return tx;
    }

    void removeOldestAnswered() {
        Transaction<?> tx = answered.pollFirst();
        if (tx != null) {
            retire(tx);
            dequeued(tx);
        }
    }

    /** Forgets a transaction everywhere (once); the queues drop it lazily. */
    private void retire(Transaction<?> tx) {
        if (tx.done) {
            return;
        }
        tx.done = true;
        live--;
        byClient.remove(tx.clientKey, tx.slot);
        removeUpstream(tx);
    }

    /** Every live transaction, pending or lingering, once each (for {@code show conns}, not the data path). */
    void forEachLive(java.util.function.Consumer<Transaction<?>> each) {
        java.util.Set<Transaction<?>> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (ArrayDeque<Transaction<?>> q : java.util.List.of(pending, answered)) {
            for (Transaction<?> tx : q) {
                if (!tx.done && seen.add(tx)) {
                    each.accept(tx);
                }
            }
        }
    }

    /** Transactions pending or lingering. */
    int size() {
        return live;
    }

    /** The real's index; its paths are {@code index * sockets + socket}. */
    private int baseOf(InetSocketAddress target) {
        Integer b = paths.get(target);
        if (b == null) {
            b = paths.size();
            paths.put(target, b);
            if (b >= currentSocket.length) {
                currentSocket = Arrays.copyOf(currentSocket, currentSocket.length * 2);
            }
            int last = (b + 1) * sockets;
            if (last > nextId.length) {
                nextId = Arrays.copyOf(nextId, Math.max(last, nextId.length * 2));
            }
            for (int path = b * sockets; path < last; path++) {
                // start each path at a different point: ids seen by a real after a restart of mclb differ
                nextId[path] = (System.nanoTime() ^ (path * 0x9E3779B97F4A7C15L)) & idMask;
            }
        }
        return b;
    }

    /**
     * The map key of (path, id), passed through MurmurHash3's fmix64 (a bijection, so no new
     * collisions): {@link SlotMap} (as Netty's LongObjectHashMap before it) only folds the key's
     * halves and probes linearly, so unmixed sequential ids filled one long run of cells and every
     * removal walked that run (the whole profile of the first GTP benchmark after the linger fix).
     */
    private static long upstreamKey(int path, long id) {
        return Hashing.fmix64(((long) path << 40) ^ id);
    }
}
