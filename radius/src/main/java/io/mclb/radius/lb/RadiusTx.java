package io.mclb.radius.lb;

import io.mclb.farm.RealServer;
import io.mclb.radius.codec.RadiusSecret;

/**
 * What a RADIUS transaction must remember to re-sign its answer: the NAS's secret and
 * authenticator, the authenticator and secret used toward the real, and the few request facts
 * learning needs. One small object per new request (the transaction's state); retransmissions reuse
 * the first one. Confined to the relay's loop.
 */
final class RadiusTx {
    final RadiusSecret nasSecret;
    final int code;
    final int acctStatus;
    final int framedIp;
    final int nasIp;
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

    RadiusTx(RadiusSecret nasSecret, int code, int acctStatus, int framedIp, int nasIp) {
        this.nasSecret = nasSecret;
        this.code = code;
        this.acctStatus = acctStatus;
        this.framedIp = framedIp;
        this.nasIp = nasIp;
    }
}
