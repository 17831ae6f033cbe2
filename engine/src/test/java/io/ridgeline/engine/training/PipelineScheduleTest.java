package io.ridgeline.engine.training;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PipelineScheduleTest {

    @Test
    void bubbleFractionIsStagesMinusOneOverMicroBatches() {
        assertEquals(7.0 / 64, PipelineSchedule.bubbleFraction(8, 1, 64), 1e-15);
        assertEquals(7.0 / (3 * 64), PipelineSchedule.bubbleFraction(8, 3, 64), 1e-15);
        assertEquals(0, PipelineSchedule.bubbleFraction(1, 1, 16), 0);
    }

    @Test
    void bubbleSecondsScaleWithTheStageTime() {
        assertEquals(7 * 0.5, PipelineSchedule.bubbleSeconds(8, 1, 0.5), 1e-12);
        assertEquals(7 * 0.5 / 2, PipelineSchedule.bubbleSeconds(8, 2, 0.5), 1e-12);
    }
}
