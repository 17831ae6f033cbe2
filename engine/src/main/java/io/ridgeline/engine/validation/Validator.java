package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.StackProfile;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.training.ActivationMemory;
import io.ridgeline.engine.training.HostOverhead;
import io.ridgeline.engine.training.ModelStateMemory;
import io.ridgeline.engine.training.PlanRules;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.workload.ModelSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scores the engine against measured cases. Every row yields an outcome: a prediction, or "unsupported" /
 * "infeasible" with the reason. Nothing is dropped silently. The catalogues are given (the bundled ones, or ones a
 * calibration profile changed), so one validator scores one set of constants. Not thread-safe.
 */
public final class Validator {
    static final String[] COLUMNS = {"case_id", "phase", "model", "layers", "hidden", "heads", "kv_heads", "ffn",
            "mlp", "vocab", "seq_len", "moe_experts", "moe_topk", "gpu", "num_gpus", "gpus_per_node", "scale_out_gbps",
            "tp", "pp", "dp", "cp", "ep", "sp", "vpp", "zero", "global_batch", "micro_batch", "precision", "recompute",
            "batch", "input_len", "output_len", "m", "n", "k", "metric", "measured", "source", "notes"};
    private static final double GIB = 1024.0 * 1024 * 1024;

    private final HardwareCatalog hardware;
    private final StackCatalog stacks;
    private final TrainingBehaviour defaultTraining;
    private final CaseMapper mapper;
    private final TrainingStep training;
    private final InferencePredictor inference;

    public Validator() {
        this(HardwareCatalog.bundled(), StackCatalog.bundled());
    }

    /** Scores with these catalogues (e.g. a calibration profile's). */
    public Validator(HardwareCatalog hardware, StackCatalog stacks) {
        this(hardware, stacks, InferencePredictor.available());
    }

    public Validator(HardwareCatalog hardware, InferencePredictor inference) {
        this(hardware, StackCatalog.bundled(), inference);
    }

    public Validator(HardwareCatalog hardware, StackCatalog stacks, InferencePredictor inference) {
        this.hardware = hardware;
        this.stacks = stacks;
        this.defaultTraining = stacks.profile(HostOverhead.DEFAULT_STACK).training();
        this.mapper = new CaseMapper(hardware);
        this.training = new TrainingStep(hardware, defaultTraining);
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

    /** Scores one row of a case file ({@code file} is its name, for grouping). */
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
        training.software(trainingBehaviour(r));
        ModelSpec model = mapper.model(r);
        int seq = (int) r.integer("seq_len");
        SystemSpec system = mapper.system(r);
        TrainingResult result = r.isEmpty("micro_batch")
                ? bestOverMicroBatches(model, seq, system, r)
                : training.evaluate(model, seq, system, mapper.trainingPlan(r, system.chip(),
                (int) r.integer("micro_batch")));
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
     * The training behaviour of the row's {@code framework} (its host costs); the default stack's when the row names
     * none or names a serving-only stack.
     */
    private TrainingBehaviour trainingBehaviour(CsvTable.Row r) {
        if (r.isEmpty("framework")) {
            return defaultTraining;
        }
        StackProfile p = stacks.resolve(r.string("framework"), "framework").profile();
        return p.trains() ? p.training() : defaultTraining;
    }

    /** The fastest feasible micro-batch among the divisors of the per-replica batch (the sources tuned it). */
    private TrainingResult bestOverMicroBatches(ModelSpec model, int seq, SystemSpec system, CsvTable.Row r) {
        TrainingPlan base = mapper.trainingPlan(r, system.chip(), 1);
        int perReplica = base.globalBatch() / base.dp();
        TrainingResult best = null;
        for (int mb = 1; mb <= Math.min(perReplica, 64); mb++) {
            if (perReplica % mb != 0) {
                continue;
            }
            TrainingPlan plan = base.withMicroBatch(mb);
            if (PlanRules.shapeProblem(model, seq, plan) != null) {
                continue;
            }
            TrainingResult res = training.evaluate(model, seq, system, plan);
            if (best == null || (res.feasible() && (!best.feasible()
                    || res.stepTimeSeconds() < best.stepTimeSeconds()))) {
                best = res;
            }
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
        Chip chip = mapper.chip(r);
        TrainingPlan plan = mapper.trainingPlan(r, chip, (int) r.integer("micro_batch"));
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
