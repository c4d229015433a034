package io.mclb.feedback.dfp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The DFP password and its IOS roll-over ({@code password PW TIMEOUT}, reference/dfp-kalap.md
 * section 4.1): after a change the previous password stays valid for TIMEOUT, on receive as well as
 * the new one, and messages are still signed with the previous one, so both ends can be changed one
 * after the other; after TIMEOUT only the new one is used and accepted. "No password" is a
 * password here too: changing from none to PW accepts unsigned messages during the window.
 * Immutable; time is passed in ({@code System.nanoTime()} scale, from the injected clock).
 *
 * @param current       UTF-8 of the configured password, null for none
 * @param previous      the one before the last change (null for none), valid until {@code previousUntilNs}
 * @param rolling       whether a roll-over window exists at all
 */
public record DfpPasswords(byte[] current, byte[] previous, long previousUntilNs, boolean rolling) {
    public static final DfpPasswords NONE = new DfpPasswords(null, null, 0, false);

    public static DfpPasswords of(String password) {
        return password == null ? NONE : new DfpPasswords(utf8(password), null, 0, false);
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** After a reload: an unchanged password keeps any window running; a changed one opens one of {@code timeoutSeconds}. */
    public DfpPasswords next(String password, int timeoutSeconds, long nowNs) {
        byte[] next = utf8(password);
        if (Arrays.equals(next, current)) {
            return this;
        }
        if (timeoutSeconds <= 0) {
            return new DfpPasswords(next, null, 0, false);
        }
        return new DfpPasswords(next, current, nowNs + timeoutSeconds * 1_000_000_000L, true);
    }

    private boolean inWindow(long nowNs) {
        return rolling && nowNs - previousUntilNs < 0;
    }

    /** The password to sign with now (the previous one during a roll-over), or null to send unsigned. */
    public byte[] signing(long nowNs) {
        return inWindow(nowNs) ? previous : current;
    }

    /** Whether a received message is acceptable now: signed with an accepted password, or unsigned where that is allowed. */
    public boolean accepts(DfpMessage m, DfpSecurity security, long nowNs) {
        boolean window = inWindow(nowNs);
        if (current == null || (window && previous == null)) {
            if (!DfpSecurity.signed(m)) {
                return true;
            }
        }
        if (current != null && security.verify(m, current)) {
            return true;
        }
        if (window && previous != null && security.verify(m, previous)) {
            return true;
        }
        // no password at all: a Security TLV is not ours to judge
        return current == null && !window;
    }

    /** For views: NONE, SET, or SET with a pending previous one. */
    public String describe(long nowNs) {
        String c = current == null ? "NONE" : "SET";
        return inWindow(nowNs) ? c + " (previous " + (previous == null ? "NONE" : "SET") + " accepted for "
                + Math.max(0, (previousUntilNs - nowNs) / 1_000_000_000L) + " s)" : c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DfpPasswords p && Arrays.equals(current, p.current) && Arrays.equals(previous, p.previous)
                && previousUntilNs == p.previousUntilNs && rolling == p.rolling;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(current) * 31 + Arrays.hashCode(previous);
    }

    @Override
    public String toString() {
        return "DfpPasswords[" + (current == null ? "none" : "set") + (rolling ? ", rolling" : "") + "]";
    }
}
