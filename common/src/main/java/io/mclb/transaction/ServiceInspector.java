package io.mclb.transaction;

import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * A protocol's view of its datagrams, the part of a service module the engine's
 * {@link TransactionRelay} calls on the data path (DESIGN section 3). One instance per event loop:
 * implementations may keep reusable flyweights in fields. Methods read routing facts through
 * flyweights over the buffer, never copy the datagram, and never throw: a datagram they cannot
 * read is reported as {@link RequestContext#drop}.
 */
public interface ServiceInspector {

    /** Width of the request id the engine rewrites per upstream path (8 RADIUS, 16 GTPv1, 24 GTPv2). */
    int idBits();

    /**
     * Upstream sockets per event loop (1..64). Each (socket, real) pair is a path with its own id
     * space, so a narrow id (RADIUS: 256) does not cap the requests in flight to one real at
     * 256 per loop: with a 300 ms AAA that is under 1,000 requests/s per real. Default 1.
     */
    default int upstreamSockets() {
        return 1;
    }

    /**
     * Classifies a client datagram: a new request (with its id and sticky key), a follow-up of a
     * session learned earlier, a message mclb answers itself, or a drop with a reason.
     */
    void classify(ByteBuf datagram, InetSocketAddress client, RequestContext request);

    /** Writes the upstream id into a request about to go to a real, in place. */
    void writeRequestId(ByteBuf datagram, long upstreamId);

    /**
     * Reads the upstream id of a datagram from a real, or -1 when it is not a response this
     * service can match (it is then dropped and counted as {@code malformed}).
     */
    long responseId(ByteBuf datagram);

    /** Puts the client's original id back into a response, in place. */
    void writeResponseId(ByteBuf datagram, long originalId);

    /**
     * Checks a real's answer to {@code tx} before anything else is done with it, also for a late
     * answer replayed after the transaction was answered: a non-null reason drops it (counted
     * under that reason, never forwarded; e.g. a RADIUS response whose authenticator does not
     * verify). Default: every answer passes.
     */
    default io.mclb.net.DropReason verifyResponse(ByteBuf datagram, Transaction tx) {
        return null;
    }

    /** Judges a real's answer to {@code tx} (cause codes, learning). Default: forward. */
    default ResponseVerdict inspectResponse(ByteBuf datagram, Transaction tx) {
        return ResponseVerdict.FORWARD;
    }

    /**
     * Octets {@link #toReal} will append to this request (e.g. a RADIUS attribute injected), 0 for
     * none. When the received buffer cannot grow that much the engine copies it into one that can
     * before calling {@link #toReal} (the only copy on the path, and only then). Default 0.
     */
    default int toRealGrowth(Transaction tx) {
        return 0;
    }

    /** Last change before a request leaves for a real (e.g. RADIUS re-signing). */
    default void toReal(ByteBuf datagram, Transaction tx) {
    }

    /** Last change before a response leaves for the client (e.g. RADIUS re-signing). */
    default void toClient(ByteBuf datagram, Transaction tx) {
    }

    /**
     * A datagram a real sent on its own (not an answer to a transaction here, e.g. a GTP Echo
     * Request to mclb): return an answer to send back to the real, or null to drop it. Default null.
     */
    default ByteBuf unsolicited(ByteBuf datagram, InetSocketAddress real) {
        return null;
    }
}
