package io.mclb.service;

/** What to do with a real's answer (DESIGN section 3). */
public enum ResponseVerdict {
    /** Send it to the client; the transaction's hold on the real ends. */
    FORWARD,
    /**
     * Send it to the client and keep the real's session count: a session was established
     * (e.g. a GTP create accepted); the service releases it when the session ends.
     */
    FORWARD_SESSION,
    /**
     * Do not forward: charge the real a failure and send the original request to another real
     * (e.g. GTP "no resources available"). The client sees only the other real's answer.
     */
    REASSIGN,
    /** Drop the answer (counted). */
    DROP
}
