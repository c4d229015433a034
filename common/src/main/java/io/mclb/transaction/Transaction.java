package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.mclb.net.DropReason;
import io.mclb.select.StickyMode;
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
 * @param <T> the inspector's per-transaction state
 */
public final class Transaction<T> {
    final InetSocketAddress client;
    final long originalId;
    final long fingerprint;
    final long clientKey;
    final long createdNs;
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
    byte[] stickyKey;
    int stickySeconds;
    StickyMode stickyMode;
    boolean hasRouteKey;
    long routeKey;
    int growth;
    ByteBuf requestCopy;
    T state;
    Counter realRequests;
    DropReason dropReason;

    Transaction(InetSocketAddress client, long originalId, long fingerprint, long clientKey, long createdNs) {
        this.client = client;
        this.originalId = originalId;
        this.fingerprint = fingerprint;
        this.clientKey = clientKey;
        this.createdNs = createdNs;
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
        return stickyKey;
    }

    /** A DROP verdict for {@link io.mclb.service.ServiceInspector#onResponse}, counted under {@code reason}. */
    public ResponseVerdict drop(DropReason reason) {
        this.dropReason = reason;
        return ResponseVerdict.DROP;
    }
}
