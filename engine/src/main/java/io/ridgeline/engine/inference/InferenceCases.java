package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.StackProfile;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Builds model, system, plan and workload from one {@code phase=inference} row of a validation case file
 * (validation/README.md format). The row's {@code framework} picks the serving runtime (stack catalogue); empty cells
 * take the engine's documented defaults: 16-bit formats ({@link InferencePlan#DEFAULT_PRECISION}) when
 * {@code precision} is empty, pp/ep/dp = 1, the chip's default node and scale-out network, the runtime's CUDA graphs
 * and attention kernel.
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

    /**
     * The serving runtime of a row: its {@code framework} resolved in the stack catalogue (exact id, alias, or the
     * nearest catalogued version: {@link StackCatalog#resolve}); the engine's default runtime when the cell is empty.
     *
     * @throws InvalidInputException naming {@code framework} when the stack is unknown or does not serve
     */
    public static ServingBehaviour runtime(CsvTable.Row row, StackCatalog stacks) {
        if (row.isEmpty("framework")) {
            return ServingBehaviour.ENGINE_DEFAULT;
        }
        StackProfile p = stacks.resolve(row.string("framework"), "framework").profile();
        if (!p.serves()) {
            throw row.error("framework", "a serving stack (one with a serving section in catalog/stacks.yaml)",
                    "'" + row.raw("framework") + "' (" + p.id() + " only trains)");
        }
        return p.serving();
    }

    /** The plan of a row on the engine's default runtime. */
    public static InferencePlan plan(CsvTable.Row row) {
        return plan(row, ServingBehaviour.ENGINE_DEFAULT);
    }

    /**
     * The plan of a row on a runtime: {@code precision} is the weight and GEMM format (fp8 W8A8, fp4 NVFP4 W4A4); the
     * KV cache is fp8 when the runtime stores it so for quantized weights, else 16-bit; CUDA graphs and the attention
     * kernel are the runtime's.
     */
    public static InferencePlan plan(CsvTable.Row row, ServingBehaviour runtime) {
        Precision p = InferencePlan.DEFAULT_PRECISION;
        if (!row.isEmpty("precision")) {
            p = Precision.parse(row.string("precision"));
            if (p == null) {
                throw row.error("precision", "one of [bf16, fp16, fp8, fp4]", "'" + row.raw("precision") + "'");
            }
        }
        boolean quantized = p == Precision.FP8 || p == Precision.FP4;
        Precision kv = quantized ? (runtime.fp8KvWithQuantizedWeights() ? Precision.FP8 : InferencePlan.DEFAULT_PRECISION)
                : p;
        int tp = (int) row.integerOr("tp", 1);
        int pp = (int) row.integerOr("pp", 1);
        int ep = (int) row.integerOr("ep", 1);
        int dp = (int) row.integerOr("dp", 1);
        if (runtime.moeAttentionDp() && !row.isEmpty("moe_experts")) {
            // The runtime's MoE layout: attention data-parallel over the row's tp x ep ranks, experts spread over them
            // (one attention group per GPU in the engine's terms).
            ep = tp * ep;
            tp = 1;
        }
        return new InferencePlan(tp, pp, ep, dp, p, p, kv, false, true).withRuntime(runtime);
    }

    /** The workload of a row on the engine's default runtime (static batching). */
    public static InferenceWorkload workload(CsvTable.Row row) {
        return workload(row, ServingBehaviour.ENGINE_DEFAULT);
    }

    /**
     * The workload of a row (validation/README.md): on a continuous-batching runtime an empty {@code batch} on a
     * throughput row is saturation and a stated one is that many concurrent clients (online); on a static-batching
     * runtime {@code batch} is the static batch. Nothing empty becomes 1: a latency row without a batch, or a
     * static-batching row without one, is an input error naming {@code batch}. A saturated row runs the number of
     * requests the runtime's benchmark document states for its lengths ({@code benchmark_requests}), if any.
     */
    public static InferenceWorkload workload(CsvTable.Row row, ServingBehaviour runtime) {
        int in = (int) row.integer("input_len");
        int out = (int) row.integer("output_len");
        boolean throughput = "output_tokens_per_s_per_gpu".equals(row.stringOr("metric", ""));
        if (row.isEmpty("batch")) {
            if (throughput && runtime.continuousBatching()) {
                // The runtime's published benchmark: the finite dataset its document states for these lengths.
                return InferenceWorkload.saturatedRun(runtime.benchmarkRequests().requests(in, out), in, out);
            }
            throw row.error("batch", throughput
                    ? "a static batch size (the row's runtime batches statically; an empty batch means saturation "
                    + "only for a continuous-batching runtime)"
                    : "a batch size or client concurrency (a latency needs the load it was measured at; an empty "
                    + "batch means saturation, which has no request latency)", "an empty cell");
        }
        int batch = (int) row.integer("batch");
        return runtime.continuousBatching() ? InferenceWorkload.online(batch, in, out)
                : InferenceWorkload.staticBatch(batch, in, out);
    }
}
