package io.ridgeline.engine.spec;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" suggestions for misspelt names, by Levenshtein distance. */
public final class Names {
    private Names() {
    }

    /** The closest known name within a small edit distance, or null. */
    public static String closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String n = name.toLowerCase(Locale.ROOT);
        for (String k : known) {
            int d = distance(n, k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        int allowed = Math.max(2, name.length() / 3);
        return bestDistance <= allowed ? best : null;
    }

    /** "one of [a, b, c]" plus a suggestion when one is close: the expected part of an unknown-name error. */
    public static String expectedOneOf(String name, Collection<String> known) {
        String suggestion = closest(name, known);
        String list = "one of " + known.stream().sorted().toList();
        return suggestion == null ? list : list + " (did you mean '" + suggestion + "'?)";
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
