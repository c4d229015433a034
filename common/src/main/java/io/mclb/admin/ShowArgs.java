package io.mclb.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The qualifiers an operator types after a {@code show} view, IOS style ({@code show reals sfarm
 * GGSN-FARM detail}), read off the query's {@code args} (space separated). A view takes what it
 * knows; anything left is refused with what the view allows ({@link #end}), so a qualifier is
 * never silently ignored.
 */
public final class ShowArgs {
    /** A qualifier the view does not take: answered with HTTP 400 and this message. */
    public static final class BadQualifier extends IllegalArgumentException {
        public BadQualifier(String message) {
            super(message);
        }
    }

    private final String view;
    private final List<String> tokens;

    private ShowArgs(String view, List<String> tokens) {
        this.view = view;
        this.tokens = tokens;
    }

    public static ShowArgs of(String view, Map<String, String> query) {
        String a = query.get("args");
        List<String> t = new ArrayList<>();
        if (a != null && !a.isBlank()) {
            t.addAll(Arrays.asList(a.trim().split("\\s+")));
        }
        return new ShowArgs(view, t);
    }

    /** Whether the next qualifier is {@code word} (case-insensitive); not consumed. */
    public boolean peek(String word) {
        return !tokens.isEmpty() && tokens.get(0).equalsIgnoreCase(word);
    }

    /** Takes the flag {@code word} wherever it stands ({@code detail}). */
    public boolean flag(String word) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).equalsIgnoreCase(word)) {
                tokens.remove(i);
                return true;
            }
        }
        return false;
    }

    /** Takes {@code keyword VALUE} ({@code sfarm NAME}) wherever it stands; null when absent. */
    public String value(String keyword) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).equalsIgnoreCase(keyword)) {
                if (i + 1 >= tokens.size()) {
                    throw new BadQualifier("show " + view + " " + keyword + ": missing value");
                }
                String v = tokens.remove(i + 1);
                tokens.remove(i);
                return v;
            }
        }
        return null;
    }

    /** Takes the next qualifier whatever it is; null when none is left. */
    public String next() {
        return tokens.isEmpty() ? null : tokens.remove(0);
    }

    /** Takes the next qualifier, which must be there ({@code what} names it in the error). */
    public String required(String what) {
        if (tokens.isEmpty()) {
            throw new BadQualifier("show " + view + ": missing " + what);
        }
        return tokens.remove(0);
    }

    /** The next qualifier lower-cased, not consumed; null when none. */
    public String peekWord() {
        return tokens.isEmpty() ? null : tokens.get(0).toLowerCase(Locale.ROOT);
    }

    /** Refuses anything left: {@code allowed} lists what the view takes. */
    public void end(String allowed) {
        if (!tokens.isEmpty()) {
            throw new BadQualifier("show " + view + ": unexpected '" + String.join(" ", tokens) + "'; allowed: "
                    + allowed);
        }
    }
}
