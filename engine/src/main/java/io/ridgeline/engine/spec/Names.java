package io.ridgeline.engine.spec;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/** "Did you mean" suggestions for misspelt names, by Levenshtein distance. */
public final class Names {
    private Names() {
    }

    /** Each enum's constants as ids (lower-case names), computed once per enum type. */
    private static final ClassValue<String[]> IDS = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            String[] ids = new String[constants.length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
            }
            return ids;
        }
    };

    /** An enum constant's id as files and columns write it: its lower-case name, built once (ids are per row). */
    public static String id(Enum<?> constant) {
        return IDS.get(constant.getDeclaringClass())[constant.ordinal()];
    }

    /** The constant whose id is {@code text} (case and surrounding blanks ignored), or null. */
    public static <E extends Enum<E>> E parse(Class<E> type, String text) {
        String[] ids = IDS.get(type);
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (int i = 0; i < ids.length; i++) {
            if (ids[i].equals(wanted)) {
                return type.getEnumConstants()[i];
            }
        }
        return null;
    }

    /**
     * A catalogue entry by name, or an input error naming the catalogue and the field, listing the known names and
     * suggesting the closest: {@code chip catalogue: gpu: expected one of [...] (did you mean 'h100-sxm'?)}.
     */
    public static <T> T lookup(Map<String, T> entries, String name, String catalogue, String field) {
        T v = name == null ? null : entries.get(name);
        if (v == null) {
            throw new InvalidInputException(InputError.of(catalogue, field,
                    expectedOneOf(String.valueOf(name), entries.keySet()), "'" + name + "'"));
        }
        return v;
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
