package io.ridgeline.jobs.report;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import io.ridgeline.engine.workload.MoeSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The linear-layer GEMMs one device runs per transformer layer for a frontier row, as the engine shapes them: for
 * training, Megatron's column-parallel QKV and MLP-up and row-parallel projection and MLP-down over the tokens of one
 * micro-batch (engine {@code training.LayerShape} and {@code LayerTime}: M = micro_batch x seq_len / cp, N and K split
 * by tp; MoE experts at their routed tokens per expert); for inference, the same four at prefill (M = batch x
 * input_tokens) and at decode (M = batch), with TP-split KV heads as {@code inference.Replica} builds them. MoE experts
 * take LayerTime's routed tokens per local expert in both phases (the serving model's touched-expert count is not
 * reproduced). The roofline places each at its intensity and the throughput {@code ops.GemmModel} predicts, which for
 * decode is the dense-GEMM view of what the serving model times as weight-streaming kernels.
 */
public final class FrontierOperators {
    /** One GEMM of a frontier row: which model and operator, its shape and the math precision. */
    public record Operator(String model, String name, RooflineChart.Gemm shape, Precision precision) {
    }

    private FrontierOperators() {
    }

    /**
     * Distinct operators of the rows (same model, name, shape and precision counted once), in row order. Rows whose
     * model is not in the bundled catalogue or whose numbers are missing are skipped.
     */
    public static List<Operator> of(ResultRows rows, ModelCatalog models) {
        Map<String, Operator> out = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            String name = rows.text(i, "model");
            Precision p = precision(rows, i);
            if (!models.has(name) || p == null) {
                continue;
            }
            ModelSpec m = models.model(name);
            boolean inference = rows.has("phase") && rows.text(i, "phase").equals("inference");
            int tp = (int) number(rows, i, "tp", 1);
            List<Operator> ops = new ArrayList<>();
            if (inference) {
                double batch = number(rows, i, "global_batch", Double.NaN);
                double input = number(rows, i, "input_tokens", Double.NaN);
                add(ops, m, "prefill ", batch * input, tp, 1, p);
                add(ops, m, "decode ", batch, tp, 1, p);
            } else {
                double cp = number(rows, i, "cp", 1);
                double tokens = number(rows, i, "micro_batch", Double.NaN) * number(rows, i, "seq_len", Double.NaN)
                        / cp;
                add(ops, m, "", tokens, tp, (int) number(rows, i, "ep", 1), p);
            }
            for (Operator o : ops) {
                out.putIfAbsent(o.model() + "|" + o.name() + "|" + o.shape() + "|" + p, o);
            }
        }
        return List.copyOf(out.values());
    }

    private static void add(List<Operator> ops, ModelSpec m, String prefix, double tokens, int tp, int ep,
                            Precision p) {
        if (!(tokens >= 1) || tp < 1) {
            return;
        }
        long mRows = Math.round(tokens);
        double hidden = m.hidden();
        // LayerShape: (hidden + 2 kv width) / tp; Replica: K and V keep whole heads per rank (replicated when
        // tp > kv_heads).
        double qkv = prefix.isEmpty() ? (hidden + 2.0 * m.kvWidth()) / tp
                : hidden / tp + 2.0 * m.kvHeadsPerRank(tp) * m.headDim();
        double up = m.mlp().matrices() - 1; // gate and up fused into one GEMM for SwiGLU
        gemm(ops, m, prefix + "QKV", mRows, qkv, hidden, p);
        gemm(ops, m, prefix + "attention out", mRows, hidden, hidden / tp, p);
        MoeSpec moe = m.moe();
        if (moe == null) {
            double ffn = (double) m.ffn() / tp;
            gemm(ops, m, prefix + "MLP up", mRows, up * ffn, hidden, p);
            gemm(ops, m, prefix + "MLP down", mRows, hidden, ffn, p);
            return;
        }
        // LayerTime: each device's tokens x top-k (x capacity) spread over its local experts.
        double ffn = (double) moe.expertFfn() / tp;
        double localExperts = (double) moe.experts() / Math.max(1, ep);
        double perExpert = Math.ceil(tokens * moe.topK() * moe.capacityFactor() / localExperts);
        gemm(ops, m, prefix + "expert up", Math.round(perExpert), up * ffn, hidden, p);
        gemm(ops, m, prefix + "expert down", Math.round(perExpert), hidden, ffn, p);
    }

    private static void gemm(List<Operator> ops, ModelSpec m, String name, long rows, double n, double k,
                             Precision p) {
        long nn = Math.round(n);
        long kk = Math.round(k);
        if (rows >= 1 && nn >= 1 && kk >= 1) {
            ops.add(new Operator(m.name(), name, new RooflineChart.Gemm(rows, nn, kk), p));
        }
    }

    /** Training: the row's precision; inference: the activation format the GEMMs take their inputs in. */
    private static Precision precision(ResultRows rows, int i) {
        String col = rows.has("phase") && rows.text(i, "phase").equals("inference") && rows.has("activation_precision")
                && !rows.text(i, "activation_precision").isEmpty() ? "activation_precision" : "precision";
        return rows.has(col) ? Precision.parse(rows.text(i, col)) : null;
    }

    private static double number(ResultRows rows, int i, String col, double fallback) {
        if (!rows.has(col)) {
            return fallback;
        }
        double v = rows.number(i, col);
        return Double.isFinite(v) ? v : fallback;
    }
}
