package io.mclb.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code mclb check --migrate -c FILE}: every line of a configuration with its number and how mclb
 * takes it, so an operator can review an IOS migration line by line:
 * <pre>
 *   12  as IOS           predictor leastconns
 *   31  changed meaning  standby 100 authentication md5 key-string 7 ***   (HMAC-SHA256 over the key...)
 *   40  ignored          ip slb entries conn 10000   (mclb sizes its tables itself)
 *   41  unsupported      ip slb firewallfarm FW   (firewall load balancing is not part of mclb)
 *   52  error            weight 70000: out of range, allowed 0..65535
 * </pre>
 * Secrets are masked as in error messages.
 */
public record MigrationReport(String file, List<Row> rows, List<ConfigError> errors, List<ConfigError> warnings) {

    /** One line of the file; {@code verdict} is {@code NONE} for comments and blank lines. */
    public record Row(int line, LineVerdict verdict, String text) {
    }

    static MigrationReport of(String file, String text, Map<Integer, LineVerdict> verdicts,
                              List<ConfigError> errors, List<ConfigError> warnings) {
        List<Row> rows = new ArrayList<>();
        String[] raw = text.split("\r?\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String line = raw[i];
            if (i == raw.length - 1 && line.isEmpty()) {
                break;
            }
            String stripped = line.strip();
            int number = i + 1;
            LineVerdict v = verdicts.get(number);
            if (stripped.isEmpty() || stripped.startsWith("!") || stripped.equalsIgnoreCase("end")
                    || stripped.equalsIgnoreCase("exit")) {
                v = new LineVerdict(LineVerdict.Kind.NONE, "");
            } else if (v == null) {
                boolean mclb = stripped.toLowerCase(java.util.Locale.ROOT).startsWith("mclb ");
                v = new LineVerdict(mclb ? LineVerdict.Kind.MCLB : LineVerdict.Kind.IOS, "");
            }
            rows.add(new Row(number, v, masked(line)));
        }
        return new MigrationReport(file, List.copyOf(rows), List.copyOf(errors), List.copyOf(warnings));
    }

    private static String masked(String line) {
        int indent = 0;
        while (indent < line.length() && Character.isWhitespace(line.charAt(indent))) {
            indent++;
        }
        List<String> tokens = Tokenizer.tokens(line.substring(indent));
        if (tokens.isEmpty()) {
            return line;
        }
        return line.substring(0, indent) + ParseContext.redacted(new Tokenizer.Line(0, indent, tokens));
    }

    /** The report as text, one row per line of the file, then the totals. */
    public String text() {
        StringBuilder b = new StringBuilder();
        int width = String.valueOf(rows.isEmpty() ? 1 : rows.get(rows.size() - 1).line()).length();
        int[] counts = new int[LineVerdict.Kind.values().length];
        for (Row r : rows) {
            counts[r.verdict().kind().ordinal()]++;
            b.append(String.format("%" + width + "d  %-15s  %s", r.line(), r.verdict().kind().label(), r.text()));
            if (!r.verdict().note().isEmpty()) {
                b.append("   (").append(r.verdict().note()).append(')');
            }
            b.append('\n');
        }
        b.append(file).append(": ");
        List<String> parts = new ArrayList<>();
        for (LineVerdict.Kind k : LineVerdict.Kind.values()) {
            if (k != LineVerdict.Kind.NONE && counts[k.ordinal()] > 0) {
                parts.add(counts[k.ordinal()] + " " + k.label());
            }
        }
        b.append(String.join(", ", parts)).append('\n');
        return b.toString();
    }
}
