package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.PlanSelection;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanSearchTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final ModelSpec GPT3 = ModelCatalog.bundled().model("gpt3-175b");
    private static final SystemSpec H100_64 = SystemSpec.of(HW.chip("h100-sxm"), 64, HW.network("ndr"));
    private static final List<SweepSpec.Objective> OBJECTIVES = List.of(
            new SweepSpec.Objective(Metric.TOKENS_PER_S, Goal.MAX), new SweepSpec.Objective(Metric.HBM_BYTES, Goal.MIN));

    /** Every knob with more than one value, small enough lists to brute-force in a unit test. */
    private static final PlanSpace.Axes AXES = new PlanSpace.Axes(List.of(1, 2, 4, 8), List.of(1, 2, 4, 8, 16),
            List.of(1, 2), List.of(1), List.of(1, 2, 3), List.of(1, 2, 4), List.of(0, 1, 3), List.of(false, true),
            List.of(Recompute.NONE, Recompute.SELECTIVE, Recompute.FULL), List.of(Precision.BF16, Precision.FP8),
            List.of(false, true), List.of(false, true));

    @Test
    void parallelSearchReturnsTheExhaustiveBestAndFrontierForAnyThreadCount() {
        TrainingPlan[] plans = PlanSpace.enumerate(GPT3, 2048, 64, 1536, AXES);
        assertTrue(plans.length > 10_000, "space too small to mean anything: " + plans.length);
        // Brute force: evaluate the materialised array in order on one TrainingStep.
        TrainingStep step = new TrainingStep(HW);
        double[] metrics = new double[Metric.values().length];
        double[] objective = new double[2];
        Skyline<TrainingPlan> frontier = new Skyline<>(2);
        int best = -1;
        double[] bestObjective = null;
        long feasible = 0;
        for (int i = 0; i < plans.length; i++) {
            TrainingResult r = step.evaluate(GPT3, 2048, H100_64, plans[i]);
            if (!r.feasible()) {
                continue;
            }
            feasible++;
            TrainingColumns.fill(metrics, r, H100_64.chip(), 64, 2048.0 * 1536);
            objective[0] = -metrics[Metric.TOKENS_PER_S.ordinal()];
            objective[1] = metrics[Metric.HBM_BYTES.ordinal()];
            TrainingPlan p = plans[i];
            frontier.offer(objective, 0, i, () -> p);
            if (best < 0 || objective[0] < bestObjective[0]
                    || objective[0] == bestObjective[0] && objective[1] < bestObjective[1]) {
                best = i;
                bestObjective = objective.clone();
            }
        }
        assertTrue(feasible > 0 && feasible < plans.length, "need both feasible and infeasible plans: " + feasible);
        assertTrue(frontier.size() > 1, "a one-point frontier proves little");

        for (int threads : new int[]{1, 2, 3, 7}) {
            PlanSearch.Result r = PlanSearch.run(GPT3, 2048, H100_64, 1536, AXES, OBJECTIVES, threads, HW);
            assertEquals(plans.length, r.plans(), "threads " + threads);
            assertEquals(feasible, r.feasible(), "threads " + threads);
            assertEquals(best, r.bestIndex(), "threads " + threads);
            assertEquals(plans[best], r.best(), "threads " + threads);
            assertEquals(frontier.size(), r.frontier().size(), "threads " + threads);
            for (int i = 0; i < frontier.size(); i++) {
                Skyline.Entry<TrainingPlan> want = frontier.entries().get(i);
                Skyline.Entry<PlanSelection.Candidate<TrainingPlan>> got = r.frontier().get(i);
                assertEquals(want.planIndex(), got.planIndex(), "threads " + threads + " frontier " + i);
                assertEquals(want.payload(), got.payload().item(), "threads " + threads + " frontier " + i);
                assertArrayEquals(want.minimised(), got.minimised(), "threads " + threads + " frontier " + i);
            }
        }
    }

    @Test
    void lazyLayoutsEnumerateTheSameOrderedPlansAsTheNestedLoops() {
        List<TrainingPlan> reference = nestedLoops(GPT3, 2048, 64, 1536, AXES);
        TrainingPlan[] plans = PlanSpace.enumerate(GPT3, 2048, 64, 1536, AXES);
        assertEquals(reference, List.of(plans));
        // tp = 1 with only "true" listed keeps one SP-off plan per option, not a duplicate.
        PlanSpace.Axes onlySp = new PlanSpace.Axes(List.of(1, 8), List.of(8), List.of(1), List.of(1), List.of(1),
                List.of(1), List.of(1), List.of(true), List.of(Recompute.FULL), List.of(Precision.BF16),
                List.of(true), List.of(false));
        assertEquals(nestedLoops(GPT3, 2048, 64, 1536, onlySp), List.of(PlanSpace.enumerate(GPT3, 2048, 64, 1536,
                onlySp)));
    }

    /** The enumeration as it was written before layouts: one nested loop per list, each plan checked. */
    private static List<TrainingPlan> nestedLoops(ModelSpec model, int seqLen, int gpuCount, int globalBatch,
                                                  PlanSpace.Axes s) {
        List<TrainingPlan> out = new ArrayList<>();
        boolean spFalseListed = s.sp().contains(Boolean.FALSE);
        for (int tp : s.tp()) {
            for (int pp : s.pp()) {
                for (int cp : s.cp()) {
                    if (model.heads() % tp != 0 || model.layers() < pp || gpuCount % (tp * pp * cp) != 0) {
                        continue;
                    }
                    int dp = gpuCount / (tp * pp * cp);
                    for (int vpp : s.vpp()) {
                        for (int ep : s.ep()) {
                            for (int mb : s.microBatch()) {
                                for (int zero : s.zero()) {
                                    for (boolean sp : s.sp()) {
                                        if (tp == 1 && sp && spFalseListed) {
                                            continue;
                                        }
                                        for (Recompute rc : s.recompute()) {
                                            for (Precision pr : s.precision()) {
                                                for (boolean og : s.overlapGrad()) {
                                                    for (boolean fa : s.flashAttention()) {
                                                        if (globalBatch % (dp * mb) != 0
                                                                || vpp > 1 && (pp == 1 || model.layers() < pp * vpp)) {
                                                            continue;
                                                        }
                                                        TrainingPlan p = new TrainingPlan(tp, pp, dp, cp, ep,
                                                                sp && tp > 1, vpp, zero, mb, globalBatch, rc, pr,
                                                                og, fa);
                                                        if (ShapeRules.training(model, seqLen, p) == null) {
                                                            out.add(p);
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
}
