package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Builds model, system, plan and workload from one {@code phase=inference} row of a validation case file
 * (validation/README.md format). Empty cells take the engine's documented defaults: 16-bit formats
 * ({@link InferencePlan#DEFAULT_PRECISION}) when {@code precision} is empty, pp/ep/dp = 1, the chip's default node and
 * scale-out network, no CUDA graphs, fused attention.
 */
public final class InferenceCases {
    /** Context limit for models built from case rows (the rows do not state one; Llama 2 is 4,096). */
    private static final int CASE_MAX_SEQ_LEN = 1 << 20;

    private InferenceCases() {
    }

    public static ModelSpec model(CsvTable.Row row) {
        return new ModelSpec(row.string("model"), (int) row.integer("layers"), (int) row.integer("hidden"),
                (int) row.integer("heads"), (int) row.integerOr("kv_heads", row.integer("heads")), row.integer("ffn"),
                ModelCatalog.parseMlp(row), (int) row.integer("vocab"), CASE_MAX_SEQ_LEN, false, null,
                row.stringOr("source", ""));
    }

    public static SystemSpec system(CsvTable.Row row, HardwareCatalog catalog) {
        Chip chip = catalog.chip(row.string("gpu"));
        SystemSpec s = SystemSpec.of(chip, (int) row.integer("num_gpus"), catalog.defaultNetwork(chip));
        if (!row.isEmpty("gpus_per_node")) {
            s = s.withScaleUpDomain((int) row.integer("gpus_per_node"));
        }
        if (!row.isEmpty("scale_out_gbps")) {
            s = s.withScaleOut(s.scaleOut().withGbitPerSecond(row.positive("scale_out_gbps")));
        }
        return s;
    }

    public static InferencePlan plan(CsvTable.Row row) {
        Precision p = InferencePlan.DEFAULT_PRECISION;
        if (!row.isEmpty("precision")) {
            p = Precision.parse(row.string("precision"));
            if (p == null) {
                throw row.error("precision", "one of [bf16, fp16, fp8, fp4]", "'" + row.raw("precision") + "'");
            }
        }
        int tp = (int) row.integerOr("tp", 1);
        int pp = (int) row.integerOr("pp", 1);
        int ep = (int) row.integerOr("ep", 1);
        int dp = (int) row.integerOr("dp", 1);
        return new InferencePlan(tp, pp, ep, dp, p, p, p, false, true);
    }

    public static InferenceWorkload workload(CsvTable.Row row) {
        int batch = (int) row.integerOr("batch", 1);
        return InferenceWorkload.staticBatch(batch, (int) row.integer("input_len"), (int) row.integer("output_len"));
    }
}
