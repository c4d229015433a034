package io.mclb.transaction;

import io.mclb.net.DropReason;
import io.mclb.sticky.StickyKey;
import io.netty.buffer.ByteBuf;

/**
 * What a {@link ServiceInspector} says about one client datagram. Reused for every datagram of
 * a relay (loop-confined); {@link #reset()} before each classification.
 */
public final class RequestContext {
    public enum Kind { NEW, FOLLOW_UP, LOCAL, DROP }

    Kind kind;
    long id;
    long fingerprint;
    final StickyKey stickyKey = new StickyKey();
    boolean sticky;
    int stickySeconds;
    boolean stickyOnAnswer;
    long followUpRealId;
    DropReason dropReason;
    ByteBuf localAnswer;
    boolean keepCopy;
    Object attachment;

    void reset() {
        kind = Kind.DROP;
        id = 0;
        fingerprint = 0;
        sticky = false;
        stickySeconds = 0;
        stickyOnAnswer = false;
        followUpRealId = 0;
        dropReason = DropReason.MALFORMED;
        localAnswer = null;
        keepCopy = false;
        attachment = null;
    }

    /**
     * A request to balance.
     *
     * @param id          the client's request id (sequence number, identifier)
     * @param fingerprint further retransmission identity (e.g. a hash of the RADIUS authenticator), or 0
     */
    public RequestContext request(long id, long fingerprint) {
        this.kind = Kind.NEW;
        this.id = id;
        this.fingerprint = fingerprint;
        return this;
    }

    /**
     * Makes the request sticky: fill {@link #stickyKey()} first.
     *
     * @param onAnswer write the entry only when the real accepts (e.g. GTP create accepted), not on assignment
     */
    public RequestContext sticky(int seconds, boolean onAnswer) {
        this.sticky = true;
        this.stickySeconds = seconds;
        this.stickyOnAnswer = onAnswer;
        return this;
    }

    public StickyKey stickyKey() {
        return stickyKey;
    }

    /** A request belonging to a session learned earlier: goes to that real (by its real id). */
    public RequestContext followUp(long id, long fingerprint, long realId) {
        request(id, fingerprint);
        this.kind = Kind.FOLLOW_UP;
        this.followUpRealId = realId;
        return this;
    }

    /** mclb answers itself with {@code answer} (ownership passes to the relay). */
    public RequestContext local(ByteBuf answer) {
        this.kind = Kind.LOCAL;
        this.localAnswer = answer;
        return this;
    }

    public RequestContext drop(DropReason reason) {
        this.kind = Kind.DROP;
        this.dropReason = reason;
        return this;
    }

    /** Keep a copy of the request so a {@link ResponseVerdict#REASSIGN} can resend it. */
    public RequestContext keepCopy() {
        this.keepCopy = true;
        return this;
    }

    /** Service data carried on the transaction (e.g. the decoded IMSI). */
    public RequestContext attach(Object o) {
        this.attachment = o;
        return this;
    }

    public Kind kind() {
        return kind;
    }

    public long id() {
        return id;
    }
}
