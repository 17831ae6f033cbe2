package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.StackProfile;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.training.ActivationMemory;
import io.ridgeline.engine.training.ModelStateMemory;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.workload.ModelSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scores the engine against measured cases. Every row yields an outcome: a prediction, or "unsupported" /
 * "infeasible" with the reason. Nothing is dropped silently.
 */
public final class Validator {
    static final String[] COLUMNS = {"case_id", "phase", "model", "layers", "hidden", "heads", "kv_heads", "ffn",
            "mlp", "vocab", "seq_len", "moe_experts", "moe_topk", "gpu", "num_gpus", "gpus_per_node", "scale_out_gbps",
            "tp", "pp", "dp", "cp", "ep", "sp", "vpp", "zero", "global_batch", "micro_batch", "precision", "recompute",
            "batch", "input_len", "output_len", "m", "n", "k", "metric", "measured", "source", "notes"};
    private static final double GIB = 1024.0 * 1024 * 1024;

    private final HardwareCatalog hardware;
    private final CaseMapper mapper;
    private final InferencePredictor inference;

    public Validator() {
        this(HardwareCatalog.bundled(), StackCatalog.bundled());
    }

    /** Scores with these catalogues (a calibration profile's, or a fit's variant of a profile). */
    public Validator(HardwareCatalog hardware, StackCatalog stacks) {
        this(hardware, stacks, InferencePredictor.available());
    }

    public Validator(HardwareCatalog hardware, InferencePredictor inference) {
        this(hardware, StackCatalog.bundled(), inference);
    }

    /** Cases read their chips from {@code hardware} and their software profiles from {@code stacks}. */
    public Validator(HardwareCatalog hardware, StackCatalog stacks, InferencePredictor inference) {
        this.hardware = hardware;
        this.mapper = new CaseMapper(hardware, stacks, ModelCatalog.bundled());
        this.inference = inference;
    }

    /** The columns a case file must have (validation/README.md). */
    public static List<String> columns() {
        return List.of(COLUMNS);
    }

    /** Scores every row of every file, in file order. */
    public List<CaseOutcome> run(List<Path> files) {
        List<CaseOutcome> out = new ArrayList<>();
        for (Path f : files) {
            CsvTable t = CsvTable.read(f);
            t.requireColumns(COLUMNS);
            String fileName = f.getFileName().toString();
            for (CsvTable.Row r : t.rows()) {
                out.add(score(fileName, r));
            }
        }
        return out;
    }

    public CaseOutcome score(String file, CsvTable.Row r) {
        CaseOutcome.CaseKey key = new CaseOutcome.CaseKey(r.string("case_id"), file, r.stringOr("source", ""),
                r.string("phase"), r.string("metric"), r.stringOr("gpu", ""));
        double measured = r.positive("measured");
        try {
            return switch (key.phase()) {
                case "training" -> training(key, r, measured);
                case "memory" -> memory(key, r, measured);
                case "gemm" -> gemm(key, r, measured);
                case "inference" -> inference.predict(key, r, measured, mapper);
                default -> CaseOutcome.unsupported(key, measured, "unknown phase '" + key.phase() + "'");
            };
        } catch (InvalidInputException e) {
            return CaseOutcome.unsupported(key, measured, e.getMessage());
        }
    }

    private CaseOutcome training(CaseOutcome.CaseKey key, CsvTable.Row r, double measured) {
        return trainingOutcome(key, r, measured).withNote(trainingNote(r));
    }

    /** How the row's framework and architecture were read, when beyond its own columns. */
    private String trainingNote(CsvTable.Row r) {
        StringBuilder note = new StringBuilder();
        if (!r.isEmpty("framework")) {
            var stack = mapper.stack(r);
            if (!stack.exact()) {
                note.append("framework ").append(stack.describe());
            }
        }
        String completed = mapper.completionNote(r);
        if (!completed.isEmpty()) {
            note.append(note.isEmpty() ? "" : "; ").append(completed);
        }
        if (r.isEmpty("ep") && !r.isEmpty("moe_experts")) {
            note.append(note.isEmpty() ? "" : "; ")
                    .append("ep not stated: the fastest feasible divisor of the experts");
        }
        return note.toString();
    }

    private CaseOutcome trainingOutcome(CaseOutcome.CaseKey key, CsvTable.Row r, double measured) {
        ModelSpec model = mapper.model(r);
        int seq = (int) r.integer("seq_len");
        SystemSpec system = mapper.system(r);
        StackProfile stack = mapper.stack(r).profile();
        TrainingPlan base = mapper.trainingPlan(r, r.isEmpty("micro_batch") ? 1 : (int) r.integer("micro_batch"),
                stack);
        // The plans the case may have run; the fastest feasible one is scored.
        List<TrainingPlan> plans = new ArrayList<>();
        if (model.moe() != null && r.isEmpty("ep")) {
            // An MoE run that does not state its expert parallelism used one (the sources tuned it): the fastest
            // feasible expert-parallel size among the divisors of the experts.
            for (int ep = 1; ep <= model.moe().experts(); ep++) {
                if (model.moe().experts() % ep == 0) {
                    plans.addAll(candidates(model, seq, base.withExpertParallel(ep), r));
                }
            }
        } else {
            plans.addAll(candidates(model, seq, base, r));
        }
        TrainingResult result = fastest(r, model, stack.id(), plans);
        if (result == null) {
            return CaseOutcome.unsupported(key, measured, "no micro-batch size gives a well-shaped plan");
        }
        double predicted = switch (key.metric()) {
            case "iteration_time_s" -> result.stepTimeSeconds();
            case "tokens_per_s_per_gpu" -> result.tokensPerSecond() / system.gpuCount();
            default -> Double.NaN;
        };
        if (Double.isNaN(predicted) && result.feasible()) {
            return CaseOutcome.unsupported(key, measured, "metric '" + key.metric() + "' is not a training metric");
        }
        if (!result.feasible()) {
            return CaseOutcome.infeasible(key, predicted, measured, result.infeasibility().id() + ": "
                    + result.detail());
        }
        return CaseOutcome.ok(key, predicted, measured);
    }

    /**
     * The plan as stated, or one plan per micro-batch among the divisors of the per-replica batch when the row leaves
     * it empty (the sources tuned it); ill-shaped plans are left out of a search, and a stated plan of an MoE row
     * whose ep is searched is left out when ill-shaped for that ep.
     */
    private static List<TrainingPlan> candidates(ModelSpec model, int seq, TrainingPlan plan, CsvTable.Row r) {
        if (!r.isEmpty("micro_batch")) {
            return ShapeRules.training(model, seq, plan) != null && model.moe() != null && r.isEmpty("ep") ? List.of()
                    : List.of(plan);
        }
        List<TrainingPlan> out = new ArrayList<>();
        int perReplica = plan.globalBatch() / plan.dp();
        for (int mb = 1; mb <= Math.min(perReplica, 64); mb++) {
            if (perReplica % mb == 0 && ShapeRules.training(model, seq, plan.withMicroBatch(mb)) == null) {
                out.add(plan.withMicroBatch(mb));
            }
        }
        return out;
    }

    /**
     * Evaluates every candidate through the evaluator (the case as a one-point spec, {@link CasePoint}) and keeps the
     * fastest feasible result (the first of equals), else the first result; null when there is no candidate.
     */
    private TrainingResult fastest(CsvTable.Row r, ModelSpec model, String stack, List<TrainingPlan> plans) {
        if (plans.isEmpty()) {
            return null;
        }
        Evaluator evaluator = mapper.evaluators().of(CasePoint.training(r, model.name(), stack, plans), model);
        TrainingResult best = null;
        for (int i = 0; i < plans.size(); i++) {
            best = better(best, (TrainingResult) evaluator.result(i));
        }
        return best;
    }

    /** The faster feasible result (a feasible one beats an infeasible one); nulls lose. */
    private static TrainingResult better(TrainingResult best, TrainingResult res) {
        if (res == null) {
            return best;
        }
        if (best == null || (res.feasible() && (!best.feasible() || res.stepTimeSeconds() < best.stepTimeSeconds()))) {
            return res;
        }
        return best;
    }

    /**
     * Memory rows reproduce Korthikanti et al. 2022 Fig. 1 accounting: first-stage activations, and 18 bytes per
     * transformer-layer parameter (embeddings excluded, as in the figure).
     */
    private CaseOutcome memory(CaseOutcome.CaseKey key, CsvTable.Row r, double measured) {
        ModelSpec model = mapper.model(r);
        int seq = (int) r.integer("seq_len");
        mapper.chip(r); // rejects an unknown gpu id, as for every phase
        TrainingPlan plan = mapper.trainingPlan(r, (int) r.integer("micro_batch"));
        return switch (key.metric()) {
            case "activation_mem_gib" -> CaseOutcome.ok(key, ActivationMemory.firstStageBytes(model, seq, plan) / GIB,
                    measured);
            case "weights_optimizer_mem_gib" -> {
                double params = ModelStateMemory.layerParamsPerDevice(model, plan) - model.normParamsPerLayer()
                        * Math.ceil((double) model.layers() / plan.pp());
                double bytes = ModelStateMemory.weightBytes(params, plan) + ModelStateMemory.gradientBytes(params, plan)
                        + ModelStateMemory.optimizerBytes(params, plan);
                yield CaseOutcome.ok(key, bytes / GIB, measured);
            }
            default -> CaseOutcome.unsupported(key, measured, "metric '" + key.metric() + "' is not a memory metric");
        };
    }

    private CaseOutcome gemm(CaseOutcome.CaseKey key, CsvTable.Row r, double measured) {
        Chip chip = mapper.chip(r);
        if (!key.metric().equals("tflops")) {
            return CaseOutcome.unsupported(key, measured, "metric '" + key.metric() + "' is not a GEMM metric");
        }
        GemmModel g = new GemmModel(chip);
        double flops = g.achievedFlopsPerSecond(r.positive("m"), r.positive("n"), r.positive("k"), mapper.precision(r));
        return CaseOutcome.ok(key, flops / 1e12, measured);
    }
}
