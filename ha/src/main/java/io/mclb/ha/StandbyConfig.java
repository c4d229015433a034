package io.mclb.ha;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a standby applies when the active pushes its running configuration ({@code write standby}):
 * the active's shared part with this node's own part kept.
 *
 * <p>Node-local (kept from {@code local}, dropped from {@code received}): every top-level
 * {@code mclb ...} line (admin listener, data directory, {@code mclb ha}, {@code mclb replicate tls}),
 * {@code interface} stanzas (the HSRP group: own address, priority, preempt) and {@code track}
 * lines, and each virtual server's {@code replicate ...} line (the mirrored LISTEN/REMOTE
 * addresses). Everything else (farms, reals, virtual servers, probes, maps) is the active's.
 *
 * <p>Both texts are in {@link io.mclb.config.ConfigWriter} form: top-level lines unindented, their
 * sub-lines indented, {@code !} separators. A pure function, so it is tested by cases.
 */
public final class StandbyConfig {
    private StandbyConfig() {
    }

    /** The configuration to apply on the standby: {@code received} with {@code local}'s node-local lines. */
    public static String merge(String local, String received) {
        List<List<String>> localStanzas = stanzas(local);
        String replicate = null;
        StringBuilder out = new StringBuilder();
        for (List<String> s : localStanzas) {
            if (nodeLocal(s.get(0))) {
                append(out, s);
            }
            for (String line : s) {
                if (replicate == null && isReplicate(line)) {
                    replicate = line;
                }
            }
        }
        for (List<String> s : stanzas(received)) {
            if (nodeLocal(s.get(0))) {
                continue;
            }
            List<String> kept = new ArrayList<>(s.size());
            for (String line : s) {
                if (isReplicate(line)) {
                    if (replicate != null) {
                        kept.add(replicate);
                    }
                } else {
                    kept.add(line);
                }
            }
            append(out, kept);
        }
        return out.toString();
    }

    private static void append(StringBuilder out, List<String> stanza) {
        for (String line : stanza) {
            out.append(line).append('\n');
        }
        out.append("!\n");
    }

    /** Top-level line plus its indented lines; comments and separators dropped. */
    private static List<List<String>> stanzas(String text) {
        List<List<String>> out = new ArrayList<>();
        List<String> cur = null;
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("!")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                if (cur != null) {
                    cur.add(line.stripTrailing());
                }
            } else {
                cur = new ArrayList<>();
                cur.add(line.stripTrailing());
                out.add(cur);
            }
        }
        return out;
    }

    private static boolean nodeLocal(String topLine) {
        String first = topLine.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
        return first.equals("mclb") || first.equals("interface") || first.equals("track");
    }

    private static boolean isReplicate(String line) {
        return !line.isEmpty() && Character.isWhitespace(line.charAt(0))
                && line.strip().toLowerCase(Locale.ROOT).startsWith("replicate ");
    }
}
