package io.mclb.transaction;

import io.mclb.farm.RealServer;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * One request in flight (or just answered and lingering so a late retransmission still reaches
 * the same real with the same upstream id). Confined to its relay's event loop.
 */
public final class Transaction {
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
    byte[] stickyKey;
    int stickySeconds;
    boolean stickyOnAnswer;
    ByteBuf requestCopy;
    Object attachment;
    io.micrometer.core.instrument.Counter realRequests;

    io.micrometer.core.instrument.Counter realRequests() {
        return realRequests;
    }

    void releaseCopy() {
        if (requestCopy != null) {
            requestCopy.release();
            requestCopy = null;
        }
    }

    Transaction(InetSocketAddress client, long originalId, long fingerprint, long clientKey, long createdNs) {
        this.client = client;
        this.originalId = originalId;
        this.fingerprint = fingerprint;
        this.clientKey = clientKey;
        this.createdNs = createdNs;
    }

    public InetSocketAddress client() {
        return client;
    }

    public RealServer real() {
        return real;
    }

    public long originalId() {
        return originalId;
    }

    public long upstreamId() {
        return upstreamId;
    }

    public int reassignments() {
        return reassignments;
    }

    /** The service's data attached at classification. */
    public Object attachment() {
        return attachment;
    }

    /** The sticky key bytes of this request, or null. */
    public byte[] stickyKey() {
        return stickyKey;
    }
}
