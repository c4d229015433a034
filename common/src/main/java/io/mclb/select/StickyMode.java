package io.mclb.select;

/** When a request's sticky entry is written. */
public enum StickyMode {
    /** When a real is chosen (client IP, RADIUS subscribers). */
    ON_ASSIGN,
    /**
     * Only when the real accepts (the answer is judged {@code FORWARD_SESSION}): a GTP create
     * rejected with "no resources" must not pin its IMSI to that GGSN.
     */
    ON_ANSWER,
    /**
     * Looked up, never written or extended: the request ends the subscriber (a RADIUS
     * Accounting-Stop is routed by its session's entry, which then goes).
     */
    LOOKUP_ONLY
}
