package io.mclb.vserver;

import io.mclb.farm.RealServer;

import java.net.InetSocketAddress;

/**
 * One plain UDP flow: a client address and port talking to a virtual address and port, bound to
 * one real through one {@link FlowSocket}. Confined to the event loop of its {@link FlowRelay}.
 */
final class Flow {
    final InetSocketAddress client;
    final long createdNs;
    RealServer real;
    InetSocketAddress target;
    FlowSocket socket;
    long lastSeenNs;
    /** datagrams forwarded to the real since its last answer (reassign / in-band failure input) */
    int unanswered;
    /** when the oldest datagram still without an answer was forwarded */
    long unansweredSinceNs;
    /** the sticky key bytes, when the virtual server is sticky, to extend the entry when the flow ends */
    byte[] stickyKey;
    io.micrometer.core.instrument.Counter realRequests;

    Flow(InetSocketAddress client, long createdNs) {
        this.client = client;
        this.createdNs = createdNs;
    }
}
