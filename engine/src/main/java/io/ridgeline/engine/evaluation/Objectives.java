package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.List;

/** A sweep's objectives as arrays: turns a metrics row into the vector to minimise (maximised metrics negated). */
public final class Objectives {
    private final int[] metrics;
    private final boolean[] maximise;

    public Objectives(List<SweepSpec.Objective> objectives) {
        this.metrics = new int[objectives.size()];
        this.maximise = new boolean[objectives.size()];
        for (int i = 0; i < metrics.length; i++) {
            metrics[i] = objectives.get(i).metric().ordinal();
            maximise[i] = objectives.get(i).goal() == Goal.MAX;
        }
    }

    public int size() {
        return metrics.length;
    }

    /** Writes the minimisation vector of a metrics row (indexed by Metric ordinal) into {@code out}. */
    public void vector(double[] metricsRow, double[] out) {
        for (int i = 0; i < metrics.length; i++) {
            double v = metricsRow[metrics[i]];
            out[i] = maximise[i] ? -v : v;
        }
    }
}
