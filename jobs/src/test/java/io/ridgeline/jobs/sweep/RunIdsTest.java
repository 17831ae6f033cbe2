package io.ridgeline.jobs.sweep;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Default run ids: readable UTC timestamp, sortable across seconds, distinct within one. */
class RunIdsTest {
    private static final Instant T = Instant.parse("2026-11-29T23:32:27.400Z");

    @Test
    void idsNameTheSweepAndTheSecondAndEndInSixHexDigits() {
        assertEquals("quickstart-20261129T233227Z-00002a", RunIds.generate("quickstart", T, new FixedRandom(42)));
        assertTrue(RunIds.VALID.matcher(RunIds.generate("quickstart", T)).matches());
    }

    @Test
    void runsStartedInTheSameSecondGetDistinctIds() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            ids.add(RunIds.generate("quickstart", T));
        }
        assertEquals(1000, ids.size());
    }

    @Test
    void idsOfLaterSecondsSortAfterEarlierOnes() {
        String a = RunIds.generate("q", T, new FixedRandom(0xffffff));
        String b = RunIds.generate("q", T.plusSeconds(1), new FixedRandom(0));
        assertTrue(a.compareTo(b) < 0, a + " < " + b);
    }

    private static final class FixedRandom extends Random {
        private final int value;

        FixedRandom(int value) {
            this.value = value;
        }

        @Override
        public int nextInt(int bound) {
            return value;
        }
    }
}
