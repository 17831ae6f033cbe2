package io.ridgeline.engine.parallelism;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.List;
import java.util.Locale;

/**
 * The shape rules a parallel plan must satisfy for a model, one set for both phases: what divides (heads and FFN by
 * tp, KV heads split or replicated, experts by ep) and what must hold a layer (every pipeline stage's model chunk).
 * Pipeline stages may be uneven (Megatron-LM's first/last-stage layer counts, vLLM's layer partition): the most
 * loaded stage holds ceil(layers / pp). Training adds its batch and sequence splits.
 *
 * <p>Each problem is an {@link InputError} naming the plan field ({@code plan.tp} ...). A rule set stops at the first
 * problem when {@code all} is null and allocates nothing for a plan that fits, since the training step checks every
 * plan it evaluates; with a list it collects every problem (messages for users).
 */
public final class ShapeRules {
    private ShapeRules() {
    }

    /** The first problem of a training plan, or null when it fits; every problem goes to {@code all} if given. */
    public static InputError training(ModelSpec m, int seqLen, TrainingPlan p, List<InputError> all) {
        String source = "training plan";
        InputError first = model(m, p.tp(), p.pp(), p.vpp(), p.ep(), source, all);
        if (stop(first, all) != null) {
            return first;
        }
        long dpMb = (long) p.dp() * p.microBatch();
        if (p.globalBatch() % dpMb != 0) {
            first = add(first, all, source, "plan.global_batch", "a multiple of dp x micro_batch = " + dpMb,
                    Integer.toString(p.globalBatch()));
        } else if (p.vpp() > 1 && p.microBatchesPerStep() % p.pp() != 0) {
            first = add(first, all, source, "plan.global_batch", "micro-batches per step (global_batch / (dp x "
                    + "micro_batch)) a multiple of pp " + p.pp() + " (interleaving)", p.microBatchesPerStep()
                    + " micro-batches");
        }
        if (stop(first, all) != null) {
            return first;
        }
        if (seqLen % p.cp() != 0) {
            first = add(first, all, source, "plan.cp", "a divisor of seq_len " + seqLen, Integer.toString(p.cp()));
        }
        if (stop(first, all) == null && p.sp() && p.tp() == 1) {
            first = add(first, all, source, "plan.sp", "false without tensor parallelism (tp 1)", "true");
        }
        // Experts split over TP take EP ranks from dp x cp; experts whole on a rank (expert TP 1, MoE parallel
        // folding) may take them from tp x dp x cp (Megatron-core: tp x cp x dp = etp x ep x edp).
        boolean expertTp = p.software().expertTensorParallel();
        long pool = expertTp ? (long) p.dp() * p.cp() : (long) p.tp() * p.dp() * p.cp();
        if (stop(first, all) == null && m.isMoe() && pool % p.ep() != 0) {
            first = add(first, all, source, "plan.ep", "a divisor of " + (expertTp ? "dp x cp = " : "tp x dp x cp = ")
                    + pool + " (expert ranks come out of the " + (expertTp ? "" : "tensor-, ")
                    + "data- and context-parallel ranks)", Integer.toString(p.ep()));
        }
        return first;
    }

    /** {@link #training(ModelSpec, int, TrainingPlan, List)} without the list: the first problem or null. */
    public static InputError training(ModelSpec m, int seqLen, TrainingPlan p) {
        return training(m, seqLen, p, null);
    }

    /**
     * The rules both phases share: tensor, pipeline and expert splits of the model.
     *
     * @param source names the plan in messages ("training plan", "inference plan")
     * @param all    every problem is added here when not null; when null the check stops at the first
     * @return the first problem, or null when the splits fit the model
     */
    public static InputError model(ModelSpec m, int tp, int pp, int vpp, int ep, String source, List<InputError> all) {
        InputError first = null;
        if (m.heads() % tp != 0) {
            first = add(first, all, source, "plan.tp", "a divisor of the model's heads (" + m.heads() + ")",
                    Integer.toString(tp));
        }
        int kv = m.kvHeads();
        if (stop(first, all) == null && (kv >= tp ? kv % tp != 0 : tp % kv != 0)) {
            first = add(first, all, source, "plan.tp", "a divisor or a multiple of the model's kv_heads (" + kv
                    + "); KV heads are split when kv_heads >= tp and replicated when tp > kv_heads",
                    Integer.toString(tp));
        }
        // Every MLP the model has must split: the dense FFN and, for MoE, each expert's.
        long ffn = m.isMoe() && m.ffn() % tp == 0 ? m.moe().expertFfn() : m.ffn();
        if (stop(first, all) == null && ffn % tp != 0) {
            first = add(first, all, source, "plan.tp", "a divisor of the model's ffn (" + ffn + ")",
                    Integer.toString(tp));
        }
        if (stop(first, all) == null && (long) pp * vpp > m.layers() && !edgesArePipelineLayers(m.layers(), pp, vpp)) {
            first = add(first, all, source, "plan.pp", "at most the model's layers (" + m.layers() + ") model "
                    + "chunks (pp x vpp; stages may be uneven), or layers + 2 = " + (m.layers() + 2) + " when the "
                    + "embedding and the loss count as pipeline layers", vpp == 1 ? Integer.toString(pp)
                    : pp + " x vpp " + vpp);
        }
        if (stop(first, all) == null && vpp > 1 && pp == 1) {
            first = add(first, all, source, "plan.vpp", "1 without pipeline parallelism (pp 1)",
                    Integer.toString(vpp));
        }
        if (stop(first, all) == null && ep > 1 && !m.isMoe()) {
            first = add(first, all, source, "plan.ep", "1 for a dense model (" + m.name() + ")", Integer.toString(ep));
        }
        if (stop(first, all) == null && m.isMoe() && m.moe().experts() % ep != 0) {
            first = add(first, all, source, "plan.ep", "a divisor of the model's experts (" + m.moe().experts()
                    + "), each GPU holding experts / ep", Integer.toString(ep));
        }
        return first;
    }

    /**
     * True when the embedding and the loss count as one pipeline layer each, the only way the split works: layers do
     * not divide the pp x vpp model chunks but layers + 2 do (Megatron-core {@code account_for_embedding_in_pipeline_split},
     * {@code account_for_loss_in_pipeline_split}; the Megatron-Bridge Llama 3.1 405B recipes: 126 + 2 over 16 x 8).
     */
    public static boolean edgesArePipelineLayers(int layers, int pp, int vpp) {
        int chunks = pp * vpp;
        return pp > 1 && layers % chunks != 0 && (layers + 2) % chunks == 0;
    }

    /**
     * A plan that leaves dp out fills the cluster with whole replicas: the replica's size must divide the GPU count
     * (a smaller dp would leave GPUs idle without saying so).
     *
     * @param product how the replica is made, e.g. "tp x pp x cp"
     */
    public static InputError wholeReplicas(int gpus, int replica, String product) {
        return InputError.of("plan", "plan.dp", product + " (" + replica + ") dividing gpu_count " + gpus
                + " (dp fills the cluster with whole replicas; or set dp)", String.format(Locale.ROOT,
                "%d / %d = %.3g replicas", gpus, replica, (double) gpus / replica));
    }

    /** Null while checking should go on: always when collecting every problem, else until the first one. */
    private static InputError stop(InputError first, List<InputError> all) {
        return all == null ? first : null;
    }

    private static InputError add(InputError first, List<InputError> all, String source, String field,
                                  String expected, String found) {
        InputError e = InputError.of(source, field, expected, found);
        if (all != null) {
            all.add(e);
        }
        return first == null ? e : first;
    }
}
