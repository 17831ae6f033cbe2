package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Evaluators of many one-point specs on one set of catalogues, for front ends that score measured cases (validate,
 * calibrate: engine.validation reads each case as a one-point spec whose model is its stated shape). Every evaluator
 * runs on the same phase engines, so their per-chip caches (GEMM shapes, collectives) serve every case as they serve
 * every point of a sweep. Not thread-safe; the evaluators it makes add no analysis columns.
 */
public final class PointEvaluators {
    private final HardwareCatalog hardware;
    private final StackCatalog stacks;
    /** Per phase, the points of the first evaluator that had it: their engines serve the later ones. */
    private final PhaseModel.Points[] engines = new PhaseModel.Points[SweepSpec.Phase.values().length];

    public PointEvaluators(HardwareCatalog hardware, StackCatalog stacks) {
        this.hardware = hardware;
        this.stacks = stacks;
    }

    /** An evaluator of {@code spec}, a spec of one model given as {@code model} rather than by catalogue name. */
    public Evaluator of(SweepSpec spec, ModelSpec model) {
        Evaluator e = new Evaluator(spec, new ModelSpec[]{model}, null, hardware, stacks, Evaluator.Variant.NONE,
                engines);
        PhaseModel.Points[] made = e.phases();
        for (int i = 0; i < engines.length; i++) {
            if (engines[i] == null) {
                engines[i] = made[i];
            }
        }
        return e;
    }
}
