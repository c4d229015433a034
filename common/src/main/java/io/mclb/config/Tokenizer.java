package io.mclb.config;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Splits configuration text into lines and nests them by indentation (IOS SLB running-config:
 * one leading space per level). Comment lines ({@code !...}), blank lines and the mode-leaving
 * words {@code end} and {@code exit} are dropped here, so block parsers never see them.
 *
 * <p>Tokens are separated by white space; a double-quoted string is one token (quotes removed)
 * so that descriptions and secrets with spaces survive. A tab counts as one level of indentation.
 */
final class Tokenizer {

    /** One significant line: 1-based number, indentation depth, and its tokens (never empty). */
    record Line(int number, int indent, List<String> tokens) {
        String text() {
            return String.join(" ", tokens);
        }

        /** Keyword comparison is case-insensitive; names keep their case. */
        boolean is(int i, String keyword) {
            return i < tokens.size() && tokens.get(i).equalsIgnoreCase(keyword);
        }
    }

    /** A line with the more deeply indented lines that follow it. */
    record Node(Line line, List<Node> children) {
        /** Every descendant, depth first, in file order. */
        List<Line> descendants() {
            List<Line> out = new ArrayList<>();
            for (Node c : children) {
                out.add(c.line);
                out.addAll(c.descendants());
            }
            return out;
        }
    }

    private Tokenizer() {
    }

    static List<Line> lines(String text) {
        List<Line> out = new ArrayList<>();
        String[] raw = text.split("\r?\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String s = raw[i];
            int indent = 0;
            while (indent < s.length() && (s.charAt(indent) == ' ' || s.charAt(indent) == '\t')) {
                indent++;
            }
            if (indent == s.length() || s.charAt(indent) == '!') {
                continue;
            }
            List<String> tokens = tokens(s.substring(indent));
            if (tokens.size() == 1 && (tokens.get(0).equalsIgnoreCase("end") || tokens.get(0).equalsIgnoreCase("exit"))) {
                continue;
            }
            out.add(new Line(i + 1, indent, List.copyOf(tokens)));
        }
        return out;
    }

    /** Nests lines: a line belongs to the nearest preceding line with a smaller indentation. */
    static List<Node> tree(String text) {
        List<Node> roots = new ArrayList<>();
        Deque<Node> open = new ArrayDeque<>();
        for (Line l : lines(text)) {
            while (!open.isEmpty() && open.peek().line.indent() >= l.indent()) {
                open.pop();
            }
            Node n = new Node(l, new ArrayList<>());
            (open.isEmpty() ? roots : open.peek().children).add(n);
            open.push(n);
        }
        return roots;
    }

    static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"') {
                int end = s.indexOf('"', i + 1);
                // an unterminated quote runs to the end of the line rather than failing the file
                int stop = end < 0 ? n : end;
                out.add(s.substring(i + 1, stop));
                i = stop + 1;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(s.charAt(i))) {
                    i++;
                }
                out.add(s.substring(start, i));
            }
        }
        return out;
    }

    /** The inverse of {@link #tokens}: quotes a token that holds white space or is empty. */
    static String join(List<String> tokens) {
        StringBuilder b = new StringBuilder();
        for (String t : tokens) {
            if (b.length() > 0) {
                b.append(' ');
            }
            boolean quote = t.isEmpty() || t.chars().anyMatch(Character::isWhitespace);
            b.append(quote ? "\"" + t + "\"" : t);
        }
        return b.toString();
    }
}
