package io.ridgeline.engine.training;

/**
 * 1F1B pipeline timing (Narayanan et al. 2021 sec. 2.2): with m micro-batches over p stages and v virtual stages per
 * device, a step takes m slots of the slowest stage plus a fill-and-drain bubble of (p-1)/v slots of the average
 * stage; the bubble fraction is (p-1)/(v·m) for uniform stages.
 */
public final class PipelineSchedule {
    private PipelineSchedule() {
    }

    /** Idle time of the fill and drain phases. */
    public static double bubbleSeconds(int stages, int virtualStages, double averageStageSeconds) {
        return (stages - 1) / (double) virtualStages * averageStageSeconds;
    }

    /** Bubble over ideal time: (p-1)/(v·m). */
    public static double bubbleFraction(int stages, int virtualStages, int microBatches) {
        return (stages - 1) / ((double) virtualStages * microBatches);
    }
}
