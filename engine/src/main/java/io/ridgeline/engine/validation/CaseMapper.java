package io.ridgeline.engine.validation;

import io.ridgeline.engine.evaluation.PointEvaluators;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.RecomputePolicy;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.StackProfile;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.HashMap;
import java.util.Map;

/**
 * Turns a case row (validation/README.md format) into engine inputs. The {@code framework} column picks the software
 * profile ({@link StackCatalog#resolve}: exact id, else the nearest catalogued version), and the profile supplies what
 * the framework does when a field is empty (docs/ACCURACY.md lists these defaults):
 * <ul>
 *   <li>recompute: the profile's policy ({@code auto}: the least recomputation that fits); sp: on with TP &gt; 1 where
 *       the profile says the framework does so; zero: the profile's default (distributed optimizer, FSDP full shard);</li>
 *   <li>precision: bf16; vpp: 1; cp, ep: 1; kv_heads: heads;</li>
 *   <li>gpus_per_node and scale_out_gbps: the chip's reference server;</li>
 *   <li>micro_batch: searched (the fastest feasible divisor), as the sources tuned it.</li>
 * </ul>
 * Nothing is keyed on the chip, the case or the source. Not thread-safe (its evaluators).
 */
public final class CaseMapper {
    private final HardwareCatalog hardware;
    private final StackCatalog stacks;
    private final ModelCatalog models;
    private PointEvaluators evaluators;
    private final Map<String, StackCatalog.Resolution> resolved = new HashMap<>();

    public CaseMapper(HardwareCatalog hardware) {
        this(hardware, StackCatalog.bundled(), ModelCatalog.bundled());
    }

    public CaseMapper(HardwareCatalog hardware, StackCatalog stacks, ModelCatalog models) {
        this.hardware = hardware;
        this.stacks = stacks;
        this.models = models;
    }

    /** The stack catalogue rows resolve their framework in (a calibration's, or the bundled one). */
    public StackCatalog stacks() {
        return stacks;
    }

    /**
     * The evaluation facade on the mapper's catalogues, for rows read as one-point specs ({@link CasePoint}): one
     * set of phase engines (and their per-chip caches) serves every row the mapper reads, made on first use.
     */
    public PointEvaluators evaluators() {
        if (evaluators == null) {
            evaluators = new PointEvaluators(hardware, stacks);
        }
        return evaluators;
    }

    /** How the row's {@code framework} found its training profile. */
    public StackCatalog.Resolution stack(CsvTable.Row r) {
        if (r.isEmpty("framework")) {
            throw r.error("framework", "the training stack that produced the measurement (name or name@version)",
                    "an empty cell");
        }
        StackCatalog.Resolution res = resolve(r);
        StackProfile p = res.profile();
        if (!p.trains()) {
            throw r.error("framework", "a training stack", "'" + p.id() + "' (a serving runtime)");
        }
        return res;
    }

    /**
     * The row's non-empty {@code framework} found in the stack catalogue ({@link StackCatalog#resolve}), once per
     * name: the version comparison it takes is worth doing once, not for every case and fit candidate.
     */
    public StackCatalog.Resolution resolve(CsvTable.Row r) {
        String framework = r.string("framework");
        StackCatalog.Resolution res = resolved.get(framework);
        if (res == null) {
            res = stacks.resolve(framework, "framework");
            resolved.put(framework, res);
        }
        return res;
    }

    /**
     * The model described by the row's shape columns, completed from the model catalogue when exactly one catalogued
     * model with architecture detail (head width, MLA, dense leading layers, sliding window, shared experts) has the
     * same shape columns ({@link ModelCatalog#completing}): the public configuration, matched on shape, never on the
     * case.
     */
    public ModelSpec model(CsvTable.Row r) {
        ModelSpec shape = shapeModel(r);
        ModelSpec c = models.completing(shape);
        if (c == null) {
            return shape;
        }
        return new ModelSpec(shape.name(), shape.layers(), shape.hidden(), shape.heads(), shape.kvHeads(), c.ffn(),
                shape.mlp(), shape.vocab(), shape.maxSeqLen(), shape.tiedEmbeddings(), c.moe(), shape.source(),
                c.detail());
    }

    /** The note an outcome carries when {@link #model} completed the row from the catalogue ("" otherwise). */
    public String completionNote(CsvTable.Row r) {
        ModelSpec c = models.completing(shapeModel(r));
        return c == null ? "" : "architecture completed from catalogued model " + c.name() + " ("
                + c.detail().describe() + (c.moe() != null && c.moe().sharedExperts() > 0
                ? ", " + c.moe().sharedExperts() + " shared expert" : "") + ")";
    }

    private ModelSpec shapeModel(CsvTable.Row r) {
        int heads = (int) r.integer("heads");
        int kv = (int) r.integerOr("kv_heads", heads);
        io.ridgeline.engine.workload.MoeSpec moe = null;
        if (!r.isEmpty("moe_experts")) {
            moe = new io.ridgeline.engine.workload.MoeSpec((int) r.integer("moe_experts"), (int) r.integer("moe_topk"),
                    r.integer("ffn"), 0, 1.0);
        }
        try {
            return new ModelSpec(r.stringOr("model", "case"), (int) r.integer("layers"), (int) r.integer("hidden"),
                    heads, kv, r.integer("ffn"), ModelCatalog.parseMlp(r), (int) r.integer("vocab"),
                    (int) r.integerOr("seq_len", 1 << 20), false, moe, r.source() + ":" + r.line());
        } catch (IllegalArgumentException e) {
            throw r.error("hidden", "a consistent model shape", e.getMessage());
        }
    }

    public Chip chip(CsvTable.Row r) {
        String id = r.string("gpu");
        if (!hardware.hasChip(id)) {
            throw r.error("gpu", "a known GPU id", "'" + id + "'");
        }
        return hardware.chip(id);
    }

    public SystemSpec system(CsvTable.Row r) {
        Chip chip = chip(r);
        ScaleOutNetwork net = hardware.defaultNetwork(chip);
        if (!r.isEmpty("scale_out_gbps")) {
            net = net.withGbitPerSecond(r.positive("scale_out_gbps"));
        }
        SystemSpec system = SystemSpec.of(chip, (int) r.integer("num_gpus"), net);
        if (!r.isEmpty("gpus_per_node")) {
            system = system.withScaleUpDomain((int) r.integer("gpus_per_node"));
        }
        return system;
    }

    public Precision precision(CsvTable.Row r) {
        if (r.isEmpty("precision")) {
            return Precision.BF16;
        }
        Precision p = Precision.parse(r.raw("precision"));
        if (p == null) {
            throw r.error("precision", "one of bf16, fp16, fp8, fp4", "'" + r.raw("precision") + "'");
        }
        return p;
    }

    /** The training plan with the row's software profile; the caller picks the micro-batch when it is unstated. */
    public TrainingPlan trainingPlan(CsvTable.Row r, int microBatch) {
        return trainingPlan(r, microBatch, stack(r).profile());
    }

    /** {@link #trainingPlan(CsvTable.Row, int)} with the row's profile already resolved ({@link #stack}). */
    public TrainingPlan trainingPlan(CsvTable.Row r, int microBatch, StackProfile profile) {
        TrainingBehaviour sw = profile.training();
        Recompute rc = sw.recompute() == RecomputePolicy.AUTO ? Recompute.AUTO : Recompute.NONE;
        if (!r.isEmpty("recompute")) {
            rc = Recompute.parse(r.raw("recompute"));
            if (rc == null) {
                throw r.error("recompute", "none, selective, full or auto", "'" + r.raw("recompute") + "'");
            }
        }
        int tp = (int) r.integerOr("tp", 1);
        boolean sp = r.isEmpty("sp") ? sw.sequenceParallel() && tp > 1 : r.integer("sp") == 1;
        return new TrainingPlan(tp, (int) r.integerOr("pp", 1), (int) r.integerOr("dp", 1),
                (int) r.integerOr("cp", 1), (int) r.integerOr("ep", 1), sp, (int) r.integerOr("vpp", 1),
                (int) r.integerOr("zero", sw.defaultZero()), microBatch, (int) r.integer("global_batch"), rc,
                precision(r), sw);
    }
}
