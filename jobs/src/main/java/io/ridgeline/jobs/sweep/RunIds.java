package io.ridgeline.jobs.sweep;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * Default run ids: {@code NAME-yyyyMMddTHHmmssZ-xxxxxx}. The UTC timestamp keeps ids sortable and readable; six random
 * hex digits (24 bits) keep two runs of one sweep started in the same second apart (a clash needs 1 in 16.7 M, and then
 * the run-id lock refuses the second run instead of overwriting the first).
 */
public final class RunIds {
    /** What a run id may be (also a directory name and a SQL literal). */
    public static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final RandomGenerator RANDOM = new SecureRandom();

    private RunIds() {
    }

    public static String generate(String sweepName, Instant now) {
        return generate(sweepName, now, RANDOM);
    }

    static String generate(String sweepName, Instant now, RandomGenerator random) {
        return sweepName + "-" + STAMP.format(now) + "-" + String.format(Locale.ROOT, "%06x",
                random.nextInt(1 << 24));
    }
}
