package io.mclb.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of one {@code show} command: written as an IOS-like fixed-width table for people, or
 * as JSON (a list of objects, keys as the column names) for tools.
 */
public final class Table {
    private final List<String> columns;
    private final List<Map<String, Object>> rows = new ArrayList<>();

    public Table(String... columns) {
        this.columns = List.of(columns);
    }

    public Table row(Object... values) {
        Map<String, Object> r = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            r.put(columns.get(i), i < values.length ? values[i] : null);
        }
        rows.add(r);
        return this;
    }

    public List<Map<String, Object>> rows() {
        return rows;
    }

    public String toJson() {
        return Json.write(rows);
    }

    public String toText() {
        int[] width = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            width[i] = columns.get(i).length();
            for (Map<String, Object> r : rows) {
                width[i] = Math.max(width[i], String.valueOf(r.get(columns.get(i))).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, columns.stream().map(Object.class::cast).toList(), width);
        int total = 0;
        for (int w : width) {
            total += w + 2;
        }
        sb.append("-".repeat(Math.max(0, total - 2))).append('\n');
        for (Map<String, Object> r : rows) {
            line(sb, new ArrayList<>(r.values()), width);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<Object> values, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            String v = String.valueOf(values.get(i));
            l.append(v);
            if (i < width.length - 1) {
                l.append(" ".repeat(width[i] - v.length() + 2));
            }
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
