package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.radius.codec.RadiusSecret;

/**
 * What a RADIUS transaction must remember to re-sign its answer (no secret when pass-through): the NAS's secret and
 * authenticator, the authenticator and secret used toward the real, and the few request facts
 * learning needs. The state of one new request; retransmissions reuse the first one. Reused through
 * {@link RadiusTxPool} once the engine retires it ({@link #reset} clears every field). Confined to
 * the relay's loop.
 */
final class RadiusTx {
    RadiusSecret nasSecret;
    int code;
    int acctStatus;
    int framedIp;
    int nasIp;
    final byte[] nasAuth = new byte[16];
    final byte[] upstreamAuth = new byte[16];
    /** Cisco VSAs to add (Accounting-Start with {@code radius inject acct vsa cisco}), or null. */
    byte[] inject;
    RadiusSecret realSecret;
    /** The real and upstream id {@link #upstreamAuth} was sent with; a retransmission there repeats it. */
    RealServer sentTo;
    long sentId = -1;
    /** An Accounting-Stop whose framed-IP entry goes once the request was routed (by that entry, if it was the key). */
    boolean forgetFramedIp;
    /**
     * Pass-through: an Accounting-On/Off whose NAS's framed-IP entries are purged once an AAA
     * answers it (mclb cannot verify the request; the AAA's answer says the AAA did).
     */
    boolean purgeOnAnswer;
    /**
     * An Access-Request that came without Message-Authenticator to a virtual server that requires
     * one in the AAA's answers: mclb adds one toward the AAA, so that the AAA signs its answer too.
     */
    boolean addMessageAuthenticator;
    /**
     * The NAS signed its Access-Request: its answer is signed too, with a Message-Authenticator
     * mclb adds when the AAA's answer has none (a NAS with the BlastRADIUS fixes refuses an
     * unsigned answer to a signed request). Set on the answer: {@link #signAnswer}.
     */
    boolean nasSigned;
    /** The answer being forwarded needs the Message-Authenticator {@link #nasSigned} asks for. */
    boolean signAnswer;
    /** Handed out by the pool and not yet retired: a second retirement of the same object is ignored. */
    boolean live;

    /** A pass-through virtual server's request: no secret, nothing re-signed or verified. */
    boolean passThrough() {
        return nasSecret == null;
    }

    /** Starts a new request's state: every field as a new object's (the authenticators are written before they are read). */
    RadiusTx reset(RadiusSecret nasSecret, int code, int acctStatus, int framedIp, int nasIp) {
        this.nasSecret = nasSecret;
        this.code = code;
        this.acctStatus = acctStatus;
        this.framedIp = framedIp;
        this.nasIp = nasIp;
        java.util.Arrays.fill(nasAuth, (byte) 0);
        java.util.Arrays.fill(upstreamAuth, (byte) 0);
        inject = null;
        realSecret = null;
        sentTo = null;
        sentId = -1;
        forgetFramedIp = false;
        purgeOnAnswer = false;
        addMessageAuthenticator = false;
        nasSigned = false;
        signAnswer = false;
        return this;
    }
}
