package io.mclb.service;

import io.mclb.transaction.Transaction;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * A protocol's view of its datagrams: the one thing a service module writes for the data path
 * (DESIGN section 3). The engine builds the relay around it ({@link io.mclb.transaction.TransactionRelay}),
 * owns the transactions, chooses the real ({@link io.mclb.select.RealSelector}) and does the I/O;
 * the inspector only reads and patches datagrams.
 *
 * <pre>
 * client datagram --classify--&gt; NEW / FOLLOW_UP --(engine chooses a real)--&gt; toReal --&gt; real
 *                            \--&gt; LOCAL (answered here) | DROP (counted by reason)
 * real's answer ---responseId (match)--&gt; onResponse --&gt; FORWARD / FORWARD_SESSION --&gt; toClient --&gt; client
 *                                                  \--&gt; REASSIGN (to another real) | DROP
 * real's own request to the VIP --classify--&gt; REAL_REQUEST --toClientRequest--&gt; client (from the VIP)
 * client's answer to the VIP --classify--&gt; CLIENT_ANSWER (match) --onClientAnswer--&gt; toRealAnswer --&gt; real
 * </pre>
 *
 * <p>Rules for every hook: one instance per event loop (fields may hold reusable flyweights and
 * scratch arrays; nothing is shared with other loops without being thread-safe); read routing
 * facts through flyweights over the buffer, never copy the datagram; never throw on datagram
 * content (a datagram that cannot be read is a {@link Classification#drop} or a {@code DROP}
 * verdict with a reason); never keep a reference to a buffer after the hook returns; never block.
 * Nothing here allocates per datagram but the per-transaction state {@code T}, which
 * {@link #retired} hands back for reuse.
 *
 * @param <T> what one transaction carries from its request to its answer (e.g. the RADIUS
 *            secrets and authenticators, the GTP create's IMSI), created at {@link #classify}
 */
public interface ServiceInspector<T> {

    /**
     * Fixed facts of the protocol, read once when the relay is built.
     *
     * @param idBits          width of the request id the engine rewrites per upstream path
     *                        (8 RADIUS, 16 GTP); with {@code idsPassThrough}, the width of the
     *                        part of the client's id an answer carries back (Mobile IP: the low
     *                        32 bits of the Identification)
     * @param upstreamSockets sockets per event loop toward the reals (1..64). Each (socket, real)
     *                        pair is a path with its own id space, so a narrow id (RADIUS: 256)
     *                        does not cap the requests in flight to one real at 256 per loop.
     * @param requestTimeoutMs how long a request waits for its answer before its real is charged a
     *                        failure; an answered one lingers as long (at most 15 s) for late
     *                        retransmissions
     * @param idsPassThrough  the request must reach the real unmodified (a Mobile IP registration:
     *                        the MN-HA authenticator covers its Identification), so the upstream id
     *                        is the client's own id ({@link Classification#id()} masked to
     *                        {@code idBits}) and {@link #toReal} writes nothing. Two requests in
     *                        flight to one real with the same id would be indistinguishable by
     *                        their answers: the second takes the same id on the real's next
     *                        upstream socket (another source port, so another path), and when
     *                        every socket of that real holds the id for a request still waiting,
     *                        it is dropped as {@code upstream_id_in_use}, never mismatched
     */
    record Shape(int idBits, int upstreamSockets, long requestTimeoutMs, boolean idsPassThrough) {
        public Shape {
            if (requestTimeoutMs < 1) {
                throw new IllegalArgumentException("request timeout " + requestTimeoutMs + " ms");
            }
            if (idBits < 1 || idBits > 32) {
                throw new IllegalArgumentException("id bits " + idBits + " not in 1..32");
            }
            if (upstreamSockets < 1 || upstreamSockets > 64) {
                throw new IllegalArgumentException("upstream sockets " + upstreamSockets + " not in 1..64");
            }
        }

        /** A shape whose ids the engine rewrites per upstream path (GTP, RADIUS, WiMAX R6). */
        public Shape(int idBits, int upstreamSockets, long requestTimeoutMs) {
            this(idBits, upstreamSockets, requestTimeoutMs, false);
        }
    }

    Shape shape();

    /**
     * Says what a client datagram is. May: read it; fill {@code out} (kind, request id,
     * retransmission fingerprint, sticky key, route key, the transaction state); build a
     * {@link Classification#local local answer} (in a new buffer, or in {@code datagram} itself,
     * retained); update the module's own tables (e.g. end a session). May not: modify the
     * datagram when it is forwarded (that is {@link #toReal}'s job), choose a real (the engine
     * does: a follow-up only names the real its session lives on).
     */
    void classify(ByteBuf datagram, InetSocketAddress client, Classification<T> out);

    /**
     * Last change before a request leaves for {@link Transaction#real()}: must write
     * {@link Transaction#upstreamId()} into the datagram's id field (unless the shape passes ids
     * through: then the upstream id already is the client's and nothing may change); may patch or re-sign it in
     * place, and append at most the {@link Classification#grow growth} declared at classify.
     * Called for every send of the transaction: the first, each retransmission (same real, same
     * upstream id) and each reassignment (new real, new upstream id).
     */
    void toReal(ByteBuf datagram, Transaction<T> tx);

    /**
     * The upstream id of a datagram from a real, or -1 when it is not an answer this service can
     * match (then {@link #unsolicited} is asked, and otherwise it is dropped as {@code malformed}).
     * Read only.
     */
    long responseId(ByteBuf datagram);

    /**
     * Verifies and judges a real's answer to {@code tx}. Also called for a late answer the real
     * replays after the transaction was answered ({@link Transaction#answered()} is then true):
     * only DROP (refused, e.g. a RADIUS authenticator that does not verify) or FORWARD count
     * there, and nothing may be learnt twice. May learn from the answer (sessions, bindings,
     * framed IPs); may not change the datagram (that is {@link #toClient}'s job).
     * {@link Transaction#drop(io.mclb.net.DropReason)} gives a DROP verdict with its reason.
     */
    ResponseVerdict onResponse(ByteBuf datagram, Transaction<T> tx);

    /**
     * Last change before an answer leaves for the client from the virtual address: must restore
     * {@link Transaction#originalId()}; may re-sign in place.
     */
    void toClient(ByteBuf datagram, Transaction<T> tx);

    /**
     * Octets {@link #toClient} may append to the answer {@link #onResponse} just forwarded (a
     * RADIUS Message-Authenticator the real left out): the engine then hands it a buffer with
     * that much room. Called between the two.
     */
    default int answerGrowth(Transaction<T> tx) {
        return 0;
    }

    /**
     * Last change before a request a real started ({@link Classification#realRequest}) leaves the
     * virtual address for its client: must write {@link Transaction#upstreamId()} into the id
     * field; may patch in place (lengths unchanged). Called for the first send and for each
     * retransmission by the real (same upstream id). {@link Transaction#client()} is the real's
     * address here. Default: nothing (only reached when classify says so).
     */
    default void toClientRequest(ByteBuf datagram, Transaction<T> tx) {
    }

    /**
     * Judges a client's answer to a request a real started: FORWARD, or DROP with a reason
     * ({@link Transaction#drop}). Also called for a replayed answer ({@link Transaction#answered()}).
     * May learn from it (e.g. end the session a Delete named); may not change it. Default FORWARD.
     */
    default ResponseVerdict onClientAnswer(ByteBuf datagram, Transaction<T> tx) {
        return ResponseVerdict.FORWARD;
    }

    /**
     * Last change before a client's answer goes back to the real that started the request, from the
     * virtual address: must restore {@link Transaction#originalId()}; may patch in place. Default: nothing.
     */
    default void toRealAnswer(ByteBuf datagram, Transaction<T> tx) {
    }

    /**
     * The engine is done with {@code state}: the transaction that carried it is being reused for a
     * later request, or a classification's state was not taken by any transaction (the datagram was a
     * retransmission, was dropped, or was answered here). From now on no hook sees it, so the
     * inspector may reuse the object for a later {@link #classify}: that is how a module keeps its
     * per-transaction state off the allocator. Called once per state object on the loop, never for
     * a state a live transaction still names; a state given to two transactions (a long-lived
     * session used as the state of its follow-ups) comes back once per transaction, so only objects
     * the inspector made for one transaction may be pooled. Default: nothing (the GC takes it).
     */
    default void retired(T state) {
    }

    /**
     * A datagram a real sent on its own (not an answer to a transaction here, e.g. a GTP Echo
     * Request to mclb): an answer to send back to the real (a new buffer), or null to drop it.
     * Default null.
     */
    default ByteBuf unsolicited(ByteBuf datagram, InetSocketAddress real) {
        return null;
    }
}
