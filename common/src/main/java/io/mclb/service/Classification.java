package io.mclb.service;

import io.mclb.net.DropReason;
import io.mclb.select.Selection;
import io.mclb.select.StickyMode;
import io.mclb.sticky.StickyKey;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * What a {@link ServiceInspector} says about one client datagram. One per relay, reused for every
 * datagram (loop-confined); the engine resets it before each {@link ServiceInspector#classify}.
 *
 * @param <T> the inspector's per-transaction state
 */
public final class Classification<T> {
    /**
     * NEW / FOLLOW_UP: a client's request; LOCAL: answered here; DROP: counted by reason;
     * REAL_REQUEST: a request a real started toward a client ({@link #realRequest});
     * CLIENT_ANSWER: a client's answer to one ({@link #clientAnswer}).
     */
    public enum Kind { NEW, FOLLOW_UP, LOCAL, DROP, REAL_REQUEST, CLIENT_ANSWER }

    private final Selection selection = new Selection();
    private Kind kind;
    private long id;
    private long fingerprint;
    private DropReason dropReason;
    private ByteBuf localAnswer;
    private boolean keepCopy;
    private boolean oneWay;
    private boolean startsSession;
    private boolean retransmissionOnly;
    private int growth;
    private T state;
    private boolean stateAdopted;
    private InetSocketAddress peer;

    /** Engine: before each classification. */
    public void reset() {
        kind = Kind.DROP;
        id = 0;
        fingerprint = 0;
        dropReason = DropReason.MALFORMED;
        localAnswer = null;
        keepCopy = false;
        oneWay = false;
        startsSession = false;
        retransmissionOnly = false;
        growth = 0;
        state = null;
        stateAdopted = false;
        peer = null;
        selection.reset();
    }

    /**
     * A request to balance.
     *
     * @param id          the client's request id (sequence number, identifier)
     * @param fingerprint further retransmission identity (e.g. a hash of the message), or 0
     */
    public Classification<T> request(long id, long fingerprint) {
        this.kind = Kind.NEW;
        this.id = id;
        this.fingerprint = fingerprint;
        return this;
    }

    /** A request of a session learnt earlier: it goes to that session's real (by its real id) when it can. */
    public Classification<T> followUp(long id, long fingerprint, long realId) {
        request(id, fingerprint);
        this.kind = Kind.FOLLOW_UP;
        selection.boundTo(realId);
        return this;
    }

    /**
     * A request a real sent to the virtual address on its own, for the client {@code client}
     * (e.g. a GGSN's Update or Delete toward the SGSN of an anchored session): the engine sends it
     * from the virtual address to {@code client} with an id of its own on that path
     * ({@link ServiceInspector#toClientRequest}), recognises the real's retransmissions by
     * (real address and port, {@code id}, {@code fingerprint}), and relays the client's answer
     * back to the real ({@link #clientAnswer}). The inspector vouches that the sender is the real
     * it says; the engine neither chooses a real nor charges one.
     */
    public Classification<T> realRequest(long id, long fingerprint, InetSocketAddress client) {
        this.kind = Kind.REAL_REQUEST;
        this.id = id;
        this.fingerprint = fingerprint;
        this.peer = client;
        return this;
    }

    /**
     * A client's answer, with id {@code id}, to a request a real started ({@link #realRequest}):
     * matched by (sender, id) on the engine's path to that client, else dropped as
     * {@code unmatched} (what the module counts an answer to the virtual address as).
     */
    public Classification<T> clientAnswer(long id, DropReason unmatched) {
        this.kind = Kind.CLIENT_ANSWER;
        this.id = id;
        this.dropReason = unmatched;
        return this;
    }

    /** The key of the subscriber, to fill before {@link #sticky}. */
    public StickyKey stickyKey() {
        return selection.stickyKey();
    }

    /** The request is sticky by {@link #stickyKey()} for {@code seconds}; {@code mode} says when the entry is written. */
    public Classification<T> sticky(int seconds, StickyMode mode) {
        selection.sticky(seconds, mode);
        return this;
    }

    /** The key a keyed predictor ({@code predictor route-map}) maps to a real, e.g. the subscriber's IPv4 address. */
    public Classification<T> routeKey(long key) {
        selection.routeKey(key);
        return this;
    }

    /** mclb answers itself with {@code answer}; ownership passes to the engine. */
    public Classification<T> local(ByteBuf answer) {
        this.kind = Kind.LOCAL;
        this.localAnswer = answer;
        return this;
    }

    public Classification<T> drop(DropReason reason) {
        this.kind = Kind.DROP;
        this.dropReason = reason;
        return this;
    }

    /**
     * Dropped for {@code reason} unless it is a retransmission (same client, {@code id} and
     * {@code fingerprint}) of a request still tracked: that one goes to its real as every
     * retransmission does. For a request the inspector can no longer route because its own first
     * copy ended what routed it, e.g. a GTP Delete resent after its answer was lost: the accepted
     * answer closed the session, and the GGSN answers the duplicate again (29.060 section 7.6).
     */
    public Classification<T> dropUnlessRetransmission(long id, long fingerprint, DropReason reason) {
        drop(reason);
        this.id = id;
        this.fingerprint = fingerprint;
        this.retransmissionOnly = true;
        return this;
    }

    /** Whether a {@link Kind#DROP} is only for a request that is not a retransmission. */
    public boolean retransmissionOnly() {
        return retransmissionOnly;
    }

    /** Keep a copy of the request, so a {@link ResponseVerdict#REASSIGN} can resend it to another real. */
    public Classification<T> keepCopy() {
        this.keepCopy = true;
        return this;
    }

    /**
     * No answer will come for this request (e.g. a WiMAX R6 Ack, which closes a Req/Rsp/Ack
     * exchange): it is forwarded but never waited for, so no timeout charges its real. When it
     * carries the id and fingerprint of a transaction still tracked for this client (the request
     * it acknowledges), it continues that transaction: same real, same upstream id, so the real
     * matches it to its own exchange. Otherwise the real is chosen as for a request and the
     * transaction only lingers (a retransmission of it takes the same way). Counted in
     * {@code mclb_one_way_total}, not as an assignment or retransmission.
     */
    public Classification<T> oneWay() {
        this.oneWay = true;
        return this;
    }

    /**
     * This request opens a subscriber session (a GTP create, an Access-Request or accounting
     * Start, a registration, an MS entry): the engine counts it against the virtual server's
     * {@code synguard} rate per client. A retransmission of it is never counted again.
     */
    public Classification<T> startsSession() {
        this.startsSession = true;
        return this;
    }

    /**
     * {@link ServiceInspector#toReal} will append up to {@code octets} to this request (e.g. a
     * RADIUS attribute injected): the engine then makes sure the buffer can grow that much (the
     * only copy on the path, and only then).
     */
    public Classification<T> grow(int octets) {
        this.growth = octets;
        return this;
    }

    /** The transaction's state, handed back on every later hook through {@code Transaction.state()}. */
    public Classification<T> state(T s) {
        this.state = s;
        return this;
    }

    public Kind kind() {
        return kind;
    }

    public long id() {
        return id;
    }

    public long fingerprint() {
        return fingerprint;
    }

    public DropReason dropReason() {
        return dropReason;
    }

    public ByteBuf localAnswer() {
        return localAnswer;
    }

    public boolean keepsCopy() {
        return keepCopy;
    }

    public boolean isOneWay() {
        return oneWay;
    }

    /** Whether {@link #startsSession()} was said. */
    public boolean opensSession() {
        return startsSession;
    }

    public int growth() {
        return growth;
    }

    public T state() {
        return state;
    }

    /** Engine: the state, now a transaction's (not {@link ServiceInspector#retired retired} with this classification). */
    public T adoptState() {
        stateAdopted = true;
        return state;
    }

    /** Engine: a state no transaction took, which goes back to the inspector after the datagram. */
    public T unadoptedState() {
        return stateAdopted ? null : state;
    }

    /** The client a {@link Kind#REAL_REQUEST} goes to. */
    public InetSocketAddress peer() {
        return peer;
    }

    /** The routing facts the engine's selection step reads. */
    public Selection selection() {
        return selection;
    }
}
