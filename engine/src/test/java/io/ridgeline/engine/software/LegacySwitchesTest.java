package io.ridgeline.engine.software;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LegacySwitchesTest {
    private final StackCatalog catalog = StackCatalog.bundled();

    @Test
    void theTwoExtremesAreCataloguedProfiles() {
        assertSame(catalog.profile(LegacySwitches.LEGACY).training(), LegacySwitches.behaviour(false, false));
        assertSame(catalog.profile(LegacySwitches.MODERN).training(), LegacySwitches.behaviour(true, true));
    }

    @Test
    void mixedSwitchesChangeOnlyWhatTheyName() {
        TrainingBehaviour flashOnly = LegacySwitches.behaviour(false, true);
        assertEquals(AttentionKernel.FLASH2, flashOnly.attention());
        assertFalse(flashOnly.gradReduceOverlap());
        assertEquals(catalog.profile(LegacySwitches.LEGACY).training().gradientBytes(), flashOnly.gradientBytes());
        TrainingBehaviour overlapOnly = LegacySwitches.behaviour(true, false);
        assertEquals(AttentionKernel.UNFUSED, overlapOnly.attention());
        assertTrue(overlapOnly.gradReduceOverlap());
        assertSame(overlapOnly, LegacySwitches.behaviour(true, false), "built once");
    }
}
