package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.netty.util.collection.LongObjectHashMap;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;

/**
 * The transactions of one relay (one virtual server on one event loop): by upstream path and id
 * for answers, by client identity for retransmissions, and in creation order for ageing.
 * Loop-confined, primitive-keyed maps: no boxing per datagram.
 *
 * <p>Upstream ids are allocated per path (one real's address on this loop's upstream socket),
 * cycling through the service's id width and skipping ids still in use, so an id is never reused
 * while an earlier transaction on that path may still be answered.
 */
final class TransactionTable {
    private final long idMask;
    private final LongObjectHashMap<Transaction> byUpstream = new LongObjectHashMap<>();
    private final LongObjectHashMap<Transaction> byClient = new LongObjectHashMap<>();
    private final HashMap<InetSocketAddress, Integer> paths = new HashMap<>();
    private long[] nextId = new long[8];
    private final ArrayDeque<Transaction> fifo = new ArrayDeque<>();

    TransactionTable(int idBits) {
        this.idMask = idBits >= 63 ? Long.MAX_VALUE : (1L << idBits) - 1;
    }

    static long clientKey(InetSocketAddress client, long id, long fingerprint) {
        long h = client.getAddress().hashCode() * 0x9E3779B97F4A7C15L;
        h ^= (client.getPort() + 0x632BE59BD9B4E019L) * 0xC2B2AE3D27D4EB4FL;
        h ^= (id + 0x165667B19E3779F9L) * 0x94D049BB133111EBL;
        h ^= fingerprint * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 31);
    }

    /** The transaction of this client request, verified field by field (the key is a hash). */
    Transaction byClient(long clientKey, InetSocketAddress client, long id, long fingerprint) {
        Transaction tx = byClient.get(clientKey);
        if (tx != null && tx.originalId == id && tx.fingerprint == fingerprint && tx.client.equals(client)) {
            return tx;
        }
        return null;
    }

    void addClient(Transaction tx) {
        byClient.put(tx.clientKey, tx);
        fifo.addLast(tx);
    }

    /** Gives {@code tx} a free id on the path to {@code target}; false if every id is in use. */
    boolean assignUpstream(Transaction tx, RealServer real, InetSocketAddress target) {
        int path = pathOf(target);
        long start = nextId[path];
        long id = start;
        do {
            long k = upstreamKey(path, id);
            if (!byUpstream.containsKey(k)) {
                nextId[path] = (id + 1) & idMask;
                tx.real = real;
                tx.target = target;
                tx.path = path;
                tx.upstreamId = id;
                byUpstream.put(k, tx);
                return true;
            }
            id = (id + 1) & idMask;
        } while (id != start);
        return false;
    }

    void removeUpstream(Transaction tx) {
        if (tx.target == null) {
            return;
        }
        long k = upstreamKey(tx.path, tx.upstreamId);
        if (byUpstream.get(k) == tx) {
            byUpstream.remove(k);
        }
    }

    Transaction byUpstream(InetSocketAddress sender, long id) {
        Integer path = paths.get(sender);
        if (path == null) {
            return null;
        }
        return byUpstream.get(upstreamKey(path, id & idMask));
    }

    Transaction oldest() {
        return fifo.peekFirst();
    }

    void removeOldest() {
        Transaction tx = fifo.pollFirst();
        if (tx == null) {
            return;
        }
        tx.done = true;
        if (byClient.get(tx.clientKey) == tx) {
            byClient.remove(tx.clientKey);
        }
        removeUpstream(tx);
    }

    int size() {
        return fifo.size();
    }

    private int pathOf(InetSocketAddress target) {
        Integer p = paths.get(target);
        if (p == null) {
            p = paths.size();
            paths.put(target, p);
            if (p >= nextId.length) {
                nextId = java.util.Arrays.copyOf(nextId, nextId.length * 2);
            }
            // start each path at a different point: ids seen by a real after a restart of mclb differ
            nextId[p] = (System.nanoTime() ^ (p * 0x9E3779B97F4A7C15L)) & idMask;
        }
        return p;
    }

    private static long upstreamKey(int path, long id) {
        return ((long) path << 40) ^ id;
    }
}
