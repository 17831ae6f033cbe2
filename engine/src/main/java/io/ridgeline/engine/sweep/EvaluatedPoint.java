package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * One output candidate of {@link SweepEvaluator}: a grid point with the plan chosen for it (or one frontier plan of
 * it). The evaluator reuses one instance per call: a sink must copy what it keeps before returning.
 */
public final class EvaluatedPoint {
    long pointIndex;
    int planIndex;
    final int[] coords;
    ModelSpec model;
    SweepSpec.Workload workload;
    Chip chip;
    String scaleOut;
    double scaleOutGbps;
    int scaleUpDomain;
    int gpuCount;
    TrainingPlan plan;
    TrainingResult result;
    InferencePlan inferencePlan;
    InferenceResult inferenceResult;
    DerivedDesign design;
    String topology;
    PointStatus status;
    String detail;
    final double[] metrics = new double[Metric.values().length];

    EvaluatedPoint(int axes) {
        coords = new int[axes];
    }

    public long pointIndex() {
        return pointIndex;
    }

    /** Index of the plan in the point's plan list (search) or in parallelism.plans (explicit); -1 when none. */
    public int planIndex() {
        return planIndex;
    }

    /** Grid coordinates (see {@link Grid} axis constants). Do not modify. */
    public int coord(int axis) {
        return coords[axis];
    }

    public ModelSpec model() {
        return model;
    }

    public SweepSpec.Workload workload() {
        return workload;
    }

    public Chip chip() {
        return chip;
    }

    /** The scale-out network id actually used (a chip's default resolved). */
    public String scaleOut() {
        return scaleOut;
    }

    public double scaleOutGbps() {
        return scaleOutGbps;
    }

    public int scaleUpDomain() {
        return scaleUpDomain;
    }

    public int gpuCount() {
        return gpuCount;
    }

    /** Null when no plan was valid for the point. */
    public TrainingPlan plan() {
        return plan;
    }

    /** Null when no plan was evaluated. */
    public TrainingResult result() {
        return result;
    }

    /** The inference plan of an inference row (null for training rows or when no plan was valid). */
    public InferencePlan inferencePlan() {
        return inferencePlan;
    }

    /** The inference result of an inference row; null otherwise. */
    public InferenceResult inferenceResult() {
        return inferenceResult;
    }

    /** The technology design of a derived chip; null for presets. */
    public DerivedDesign design() {
        return design;
    }

    /** The topology axis value (its id): "none" for the flat network. */
    public String topology() {
        return topology;
    }

    public PointStatus status() {
        return status;
    }

    public String detail() {
        return detail;
    }

    public double metric(Metric m) {
        return metrics[m.ordinal()];
    }

    /** The metrics array itself, indexed by {@link Metric#ordinal()}. Do not modify. */
    public double[] metrics() {
        return metrics;
    }
}
