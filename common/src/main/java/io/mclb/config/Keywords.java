package io.mclb.config;

import java.util.List;
import java.util.Locale;

/**
 * The nearest known keyword to a mistyped one ({@code wieght} -> {@code weight}), by
 * Damerau-Levenshtein distance (optimal string alignment: a swap of two neighbours is one edit,
 * the commonest typo): at most 2 edits, and fewer than half the word's letters.
 */
final class Keywords {
    private Keywords() {
    }

    /** The keyword of {@code known} nearest to {@code word}, or null when none is near enough. */
    static String nearest(String word, List<String> known) {
        String w = word.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(w, k.toLowerCase(Locale.ROOT));
            if (d > 0 && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= 2 && bestDistance * 2 < w.length() ? best : null;
    }

    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
