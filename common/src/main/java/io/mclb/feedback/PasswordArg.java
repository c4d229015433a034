package io.mclb.feedback;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.CiscoType7;

import java.util.List;

/**
 * {@code [0|7] PW [TIMEOUT]} after a {@code password} keyword (IOS: TIMEOUT is the roll-over
 * window). A lone {@code 0} or {@code 7} is the password itself.
 */
record PasswordArg(String clear, int timeoutSeconds, boolean typed, boolean hasTimeout) {
    static final PasswordArg NONE = new PasswordArg(null, FeedbackLines.DEFAULT_PASSWORD_TIMEOUT_SECONDS, false, false);

    static PasswordArg read(List<String> t, int i, String label) throws BadLine {
        boolean typed = i + 1 < t.size() && (t.get(i).equals("0") || t.get(i).equals("7"));
        boolean type7 = typed && t.get(i).equals("7");
        int at = typed ? i + 1 : i;
        String pw = Args.token(t, at, label, "password");
        if (type7) {
            try {
                pw = CiscoType7.decode(pw);
            } catch (IllegalArgumentException e) {
                throw new BadLine(label + " 7 ***: not a type 7 string (" + e.getMessage() + ")");
            }
        }
        int timeout = FeedbackLines.DEFAULT_PASSWORD_TIMEOUT_SECONDS;
        boolean hasTimeout = at + 1 < t.size();
        if (hasTimeout) {
            timeout = Args.integer(t, at + 1, label + " timeout", 0, 65535);
            Args.end(t, at + 1, label);
        }
        return new PasswordArg(pw, timeout, typed, hasTimeout);
    }

    /** The line with the password from token {@code i} on stored as {@code 7 <obfuscated> [TIMEOUT]}. */
    List<String> stored(List<String> t, int i) {
        if (clear == null) {
            return null;
        }
        List<String> out = Args.withType7Secret(t.subList(0, i), i, clear);
        if (hasTimeout) {
            out.add(Integer.toString(timeoutSeconds));
        }
        return out;
    }
}
