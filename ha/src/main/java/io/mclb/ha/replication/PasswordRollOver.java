package io.mclb.ha.replication;

/**
 * The previous replication password and until when it is still accepted (IOS
 * {@code replicate casa ... password PW TIMEOUT}: during TIMEOUT after a change the old password stays
 * valid, so the two nodes can be changed one after the other without losing the stream).
 *
 * @param password   the password before the change (null: there was none)
 * @param untilNanos {@link System#nanoTime()} at which it stops being accepted
 */
record PasswordRollOver(String password, long untilNanos) {
    /** Nanoseconds the previous password stays valid from {@code nowNanos}; 0 when it no longer does. */
    long remainingNanos(long nowNanos) {
        return Math.max(0, untilNanos - nowNanos);
    }
}
