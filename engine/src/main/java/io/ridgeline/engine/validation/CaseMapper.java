package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Turns a case row (validation/README.md format) into engine inputs. Empty cells mean "not stated"; each
 * gets the engine's documented default (docs/ACCURACY.md lists them):
 * <ul>
 *   <li>precision: bf16; recompute: none; sp: off; vpp: 1; zero: 0; cp, ep: 1; kv_heads: heads;</li>
 *   <li>gpus_per_node and scale_out_gbps: the chip's reference server;</li>
 *   <li>micro_batch: searched (the fastest feasible divisor), as the sources tuned it;</li>
 *   <li>software era: attention fused (FlashAttention) and DP gradient reduction overlapped with backward on Hopper
 *       and newer; unfused attention and no overlap on Ampere, whose published runs used Megatron-LM 2021-22.</li>
 * </ul>
 */
public final class CaseMapper {
    private final HardwareCatalog hardware;

    public CaseMapper(HardwareCatalog hardware) {
        this.hardware = hardware;
    }

    /** The model described by the row's shape columns. */
    public ModelSpec model(CsvTable.Row r) {
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

    /** True for chip generations whose published runs used fused attention and overlapped DP reduction. */
    public static boolean modernSoftware(Chip chip) {
        return !chip.family().name().equals("ampere");
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

    /** The training plan; micro-batch 0 when the row leaves it unstated (the caller searches). */
    public TrainingPlan trainingPlan(CsvTable.Row r, Chip chip, int microBatch) {
        Recompute rc = Recompute.NONE;
        if (!r.isEmpty("recompute")) {
            rc = Recompute.parse(r.raw("recompute"));
            if (rc == null) {
                throw r.error("recompute", "none, selective or full", "'" + r.raw("recompute") + "'");
            }
        }
        boolean modern = modernSoftware(chip);
        return new TrainingPlan((int) r.integerOr("tp", 1), (int) r.integerOr("pp", 1), (int) r.integerOr("dp", 1),
                (int) r.integerOr("cp", 1), (int) r.integerOr("ep", 1), r.integerOr("sp", 0) == 1,
                (int) r.integerOr("vpp", 1), (int) r.integerOr("zero", 0), microBatch,
                (int) r.integer("global_batch"), rc, precision(r), modern, modern);
    }
}
