package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a spec's explicit plans cannot run at a point: as errors on the plan's fields for front ends that take one
 * point, and as the detail of a sweep's plan_shape rows (formatted once per (model, workload, GPU count, plan)).
 */
final class ExplicitPlanProblems {
    private final SweepSpec spec;
    /** Why explicit plans cannot fill the cluster, by plan slot (formatted on first use). */
    private final String[] shapeDetails;

    ExplicitPlanProblems(SweepSpec spec, boolean explicit) {
        this.spec = spec;
        this.shapeDetails = new String[explicit ? Math.min(spec.planSlots(), 1 << 16) : 0];
    }

    /** Every problem of the point's explicit plan (its workload and model resolved in {@code p}); empty when none. */
    List<InputError> of(ResultRow p, PhaseModel.Points phase) {
        List<InputError> out = phase.problems(p, 0);
        if (out == null) {
            SweepSpec.ExplicitPlan e = plan(p);
            out = new ArrayList<>();
            ShapeRules.model(p.model, e.tp(), e.pp(), e.vpp(), e.ep(), p.workload.phase().id() + " plan", out);
            out.add(phase.wholeReplicas(p.gpuCount, e));
        }
        return out;
    }

    /** Why the point's explicit plan (dp left out) does not fill the cluster with whole replicas, as text. */
    String shapeDetail(ResultRow p, PhaseModel.Points phase) {
        int[] c = p.coords;
        int slot = spec.planSlot(c[Grid.MODEL], c[Grid.WORKLOAD], c[Grid.GPU_COUNT], c[Grid.PLAN]);
        String d = slot < shapeDetails.length ? shapeDetails[slot] : null;
        if (d == null) {
            d = phase.wholeReplicas(p.gpuCount, plan(p)).detail();
            if (slot < shapeDetails.length) {
                shapeDetails[slot] = d;
            }
        }
        return d;
    }

    private SweepSpec.ExplicitPlan plan(ResultRow p) {
        return spec.parallelism().plans().get(p.coords[Grid.PLAN]);
    }
}
