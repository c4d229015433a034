package io.mclb.perf.radius.sim;

/** How a misbehaving {@link AaaSimulator} fails, for failover and verification tests. */
public enum AaaFailure {
    /** Answers normally. */
    NONE,
    /** Receives and counts requests but never answers (a hung AAA server). */
    SILENT,
    /** Answers, but signs with a different secret: every answer must fail verification at the client. */
    WRONG_SECRET
}
