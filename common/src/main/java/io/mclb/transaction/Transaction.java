package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.mclb.net.DropReason;
import io.mclb.select.StickyMode;
import io.mclb.select.StickySighting;
import io.mclb.service.ResponseVerdict;
import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * One request in flight (or just answered and lingering so a late retransmission still reaches
 * the same real with the same upstream id), with the service's own state {@code T}. Owned by the
 * engine and confined to its relay's event loop; a {@link io.mclb.service.ServiceInspector} reads
 * it through the public accessors.
 *
 * <p>Reused: once a transaction is forgotten, its {@link TransactionTable} hands the same object to a
 * later request ({@link TransactionTable#newTransaction}), so nothing is allocated per request. An
 * inspector therefore never keeps a {@code Transaction} (or its {@link #stickyKey()} array) past the
 * callback it was given in; its own state {@code T} is its own to keep.
 *
 * @param <T> the inspector's per-transaction state
 */
public final class Transaction<T> {
    InetSocketAddress client;
    long originalId;
    long fingerprint;
    long clientKey;
    long createdNs;
    RealServer real;
    InetSocketAddress target;
    int path;
    long upstreamId;
    long sentNs;
    long answeredNs;
    int retransmissions;
    int reassignments;
    boolean answered;
    boolean done;
    boolean holdsReal;
    /** The routing facts for a reassignment: the sticky key (a copy), its lifetime and mode, the route key. */
    private byte[] stickyKeyBytes;
    boolean hasStickyKey;
    int stickySeconds;
    StickyMode stickyMode;
    boolean hasRouteKey;
    long routeKey;
    /** What the selection of {@link #real} read from the sticky table (the answer may skip its write). */
    final StickySighting stickySeen = new StickySighting();
    int growth;
    ByteBuf requestCopy;
    T state;
    Counter realRequests;
    DropReason dropReason;

    /** Entries of {@link TransactionTable}'s two queues that still name this object (it is reused at 0, once done). */
    int queued;
    /** Where its table keeps this object (its maps store the slot, not the reference); fixed for the object's life. */
    int slot = -1;

    Transaction(InetSocketAddress client, long originalId, long fingerprint, long clientKey, long createdNs) {
        reset(client, originalId, fingerprint, clientKey, createdNs);
    }

    /** Makes this object a new transaction: every field as a fresh one has it (the sticky key array is kept for reuse). */
    void reset(InetSocketAddress client, long originalId, long fingerprint, long clientKey, long createdNs) {
        this.client = client;
        this.originalId = originalId;
        this.fingerprint = fingerprint;
        this.clientKey = clientKey;
        this.createdNs = createdNs;
        real = null;
        target = null;
        path = 0;
        upstreamId = 0;
        sentNs = 0;
        answeredNs = 0;
        retransmissions = 0;
        reassignments = 0;
        answered = false;
        done = false;
        holdsReal = false;
        hasStickyKey = false;
        stickySeconds = 0;
        stickyMode = null;
        hasRouteKey = false;
        routeKey = 0;
        stickySeen.clear();
        growth = 0;
        requestCopy = null;
        state = null;
        realRequests = null;
        dropReason = null;
        queued = 0;
    }

    /** Keeps a copy of {@code key} as this request's sticky key, in the array a previous use left. */
    void copyStickyKey(byte[] key) {
        if (stickyKeyBytes == null || stickyKeyBytes.length != key.length) {
            stickyKeyBytes = new byte[key.length];
        }
        System.arraycopy(key, 0, stickyKeyBytes, 0, key.length);
        hasStickyKey = true;
    }

    void releaseCopy() {
        if (requestCopy != null) {
            requestCopy.release();
            requestCopy = null;
        }
    }

    public InetSocketAddress client() {
        return client;
    }

    /** The real the request was (last) sent to. */
    public RealServer real() {
        return real;
    }

    public long originalId() {
        return originalId;
    }

    /** The id the request carries on its current upstream path. */
    public long upstreamId() {
        return upstreamId;
    }

    public int reassignments() {
        return reassignments;
    }

    /** True for a late answer the real replays after the transaction was answered. */
    public boolean answered() {
        return answered;
    }

    /** The state the inspector gave at classification. */
    public T state() {
        return state;
    }

    /** The sticky key bytes of this request, or null. */
    public byte[] stickyKey() {
        return hasStickyKey ? stickyKeyBytes : null;
    }

    /** A DROP verdict for {@link io.mclb.service.ServiceInspector#onResponse}, counted under {@code reason}. */
    public ResponseVerdict drop(DropReason reason) {
        this.dropReason = reason;
        return ResponseVerdict.DROP;
    }
}
