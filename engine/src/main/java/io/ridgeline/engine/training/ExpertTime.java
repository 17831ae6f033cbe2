package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.software.ExpertBias;
import io.ridgeline.engine.software.MoeDispatcher;
import io.ridgeline.engine.workload.MoeSpec;

/**
 * The MoE feed-forward of one layer for one micro-batch (Megatron-core MoELayer; GShard, Switch, MegaBlocks): the
 * router GEMM, token permutation, the expert-parallel dispatch all-to-all, the grouped expert GEMMs (per local expert,
 * M = the tokens routed to it, so small-M wave quantization shows), the combine all-to-all, unpermutation, and the
 * always-on shared experts. Transformer Engine's GroupedLinear issues one GEMM per local expert, so each pays its
 * own launch and last partial wave. Loads are balanced (the benchmarks force-balance routing); a capacity factor above 1 pads
 * every expert's M.
 */
record ExpertTime(GemmModel gemm, MemoryBoundOp memory, CollectiveModel collectives) {
    private static final double ACT_BYTES = 2;
    /**
     * Kernels of one MoE forward outside the expert GEMMs: router GEMM, softmax/top-k, auxiliary-loss statistics,
     * token counts, permutation index build and gather, the two all-to-alls, unpermute scatter and weighting
     * (counted from Megatron-core's router, MoEAlltoAllTokenDispatcher and moe_utils permute/unpermute).
     */
    static final double FORWARD_FIXED_KERNELS = 14;
    /**
     * Kernels of the all-to-all dispatcher's second permutation: sort the received tokens by local expert after the
     * dispatch and restore their order before the combine (Megatron-core MoEAlltoAllTokenDispatcher
     * dispatch_postprocess / combine_preprocess, sort_chunks_by_idxs, one fused kernel each with moe_permute_fusion).
     */
    static final double SORT_KERNELS = 2;
    /** Kernels the host launches after a token-count synchronisation before the GPU has work again. */
    static final double SYNC_KERNELS = 4;
    /**
     * Eager output bias, per element of the experts' [routed copies, h] output (Megatron-core
     * TEGroupedMLP._apply_bias: t + b * p per local expert with fp32 routing probabilities, then torch.cat and a cast
     * back to 16 bits). Forward: b * p written in fp32 (4 B), the sum read (2 + 4) and written in fp32 (4), the
     * concatenation (4 + 4), the cast (4 + 2): 28 B. Backward (autograd): the cast's gradient to fp32 (2 + 4), the
     * 16-bit gradient of t (4 + 2), grad x p and its sum over tokens for the bias (4 + 4 + 4), grad x b and its sum
     * over h for the probability (4 + 4 + 4): 36 B.
     */
    private static final double EAGER_OUTPUT_BIAS_FORWARD_BYTES = 28;
    private static final double EAGER_OUTPUT_BIAS_BACKWARD_BYTES = 36;
    /**
     * Eager up-projection bias, per element of the [routed copies, up width] GEMM output (NeMo AutoModel
     * _apply_bias without probabilities): t + b per expert (2 + 2 B) and the concatenation (2 + 2) forward; the bias
     * gradient's sum over tokens (2 B) backward.
     */
    private static final double EAGER_UP_BIAS_FORWARD_BYTES = 8;
    private static final double EAGER_UP_BIAS_BACKWARD_BYTES = 2;

    /** Tokens each local expert receives per micro-batch (balanced routing, padded to the capacity factor). */
    static double tokensPerLocalExpert(LayerShape s) {
        MoeSpec moe = s.model().moe();
        double localExperts = (double) moe.experts() / s.plan().ep();
        return Math.ceil(s.expertTokens() * moe.topK() * moe.capacityFactor() / localExperts);
    }

    /**
     * Router, the local experts' up and down GEMMs (one cuBLAS GEMM per expert; with the fused MoE path one grouped
     * kernel over all local experts, so the last partial wave is paid once), and the shared experts.
     */
    double gemmForward(LayerShape s, Precision p) {
        MoeSpec moe = s.model().moe();
        double up = s.model().mlp().matrices() - 1; // gate and up fused for gated MLPs
        double local = (double) moe.experts() / s.plan().ep();
        double m = tokensPerLocalExpert(s);
        double time = gemm.seconds(s.expertTokens(), moe.experts(), s.hidden(), Precision.BF16); // router
        if (s.moeFastPath()) {
            time += gemm.seconds(local, m, up * s.expertFfn(), s.hidden(), p)
                    + gemm.seconds(local, m, s.hidden(), s.expertFfn(), p);
        } else {
            time += local * (gemm.seconds(m, up * s.expertFfn(), s.hidden(), p)
                    + gemm.seconds(m, s.hidden(), s.expertFfn(), p));
        }
        if (moe.sharedExperts() > 0) {
            double shared = (double) moe.expertFfn() * moe.sharedExperts() / s.plan().tp();
            time += gemm.seconds(s.tokens(), up * shared, s.hidden(), p) + gemm.seconds(s.tokens(), s.hidden(), shared,
                    p);
        }
        return time;
    }

    /** Data- and weight-gradient GEMMs of the router, the experts (per local expert, or grouped), shared experts. */
    double gemmBackward(LayerShape s, Precision p) {
        MoeSpec moe = s.model().moe();
        double up = s.model().mlp().matrices() - 1;
        double local = (double) moe.experts() / s.plan().ep();
        double m = tokensPerLocalExpert(s);
        double wide = up * s.expertFfn();
        double time = pair(s.expertTokens(), moe.experts(), s.hidden(), Precision.BF16);
        if (s.moeFastPath()) {
            // The down projection's data gradient carries the dGLU (and, with expert biases, the up projection's
            // bias-gradient reduction) in its epilogue; a stack version may run that reduction slowly.
            double dglu = s.model().expertBias() ? s.plan().software().fusedMoeDbiasFactor() : 1;
            time += gemm.seconds(local, m, s.hidden(), wide, p) + gemm.seconds(local, s.hidden(), wide, m, p)
                    + dglu * gemm.seconds(local, m, s.expertFfn(), s.hidden(), p)
                    + gemm.seconds(local, s.expertFfn(), s.hidden(), m, p);
        } else {
            time += local * (gemm.seconds(m, s.hidden(), wide, p)   // dgrad fc1
                    + gemm.seconds(s.hidden(), wide, m, p)           // wgrad fc1
                    + gemm.seconds(m, s.expertFfn(), s.hidden(), p)  // dgrad fc2
                    + gemm.seconds(s.expertFfn(), s.hidden(), m, p)); // wgrad fc2
        }
        if (moe.sharedExperts() > 0) {
            double shared = (double) moe.expertFfn() * moe.sharedExperts() / s.plan().tp();
            time += pair(s.tokens(), up * shared, s.hidden(), p) + pair(s.tokens(), s.hidden(), shared, p);
        }
        return time;
    }

    /**
     * Permute before dispatch and unpermute after combine: each gathers or scatters every routed copy of a token
     * (read and write top-k x h x 2 B per token), plus the router softmax over the experts in fp32.
     */
    double memory(LayerShape s) {
        MoeSpec moe = s.model().moe();
        double copies = s.expertTokens() * moe.topK() * moe.capacityFactor();
        double permutations = sortsByLocalExpert(s) ? 4 : 2;
        double bytes = permutations * 2 * copies * s.hidden() * ACT_BYTES + s.expertTokens() * moe.experts() * 4 * 3;
        return memory.seconds(bytes, copies * s.hidden(), sortsByLocalExpert(s) ? 4 + (int) SORT_KERNELS : 4);
    }

    /**
     * Whether the received tokens are sorted by local expert and restored afterwards (the all-to-all dispatcher with
     * more than one local expert, Megatron-core "permutation 2"): two more passes that read and write every routed
     * copy the rank receives, forward and, as their gradients, backward. A device-initiated (flex) dispatcher permutes
     * inside its communication kernels (HybridEP dispatch_with_permute), and the fused MoE path's recipes use it.
     */
    static boolean sortsByLocalExpert(LayerShape s) {
        return s.plan().software().moeDispatcher() == MoeDispatcher.ALLTOALL && !s.moeFastPath()
                && s.model().moe().experts() / s.plan().ep() > 1;
    }

    /**
     * The experts' biases where the stack adds them outside the grouped GEMMs (models with expert biases, off the fused
     * MoE path, whose kernels add them in their epilogues): forward traffic.
     */
    double biasForward(LayerShape s) {
        return bias(s, EAGER_OUTPUT_BIAS_FORWARD_BYTES, EAGER_UP_BIAS_FORWARD_BYTES, biasKernels(s, true));
    }

    /** The same, backward (autograd of the eager adds: bias and probability gradients). */
    double biasBackward(LayerShape s) {
        return bias(s, EAGER_OUTPUT_BIAS_BACKWARD_BYTES, EAGER_UP_BIAS_BACKWARD_BYTES, biasKernels(s, false));
    }

    private double bias(LayerShape s, double outputBytes, double upBytes, double kernels) {
        ExpertBias b = eagerBias(s);
        if (b == ExpertBias.FUSED) {
            return 0;
        }
        MoeSpec moe = s.model().moe();
        double copies = s.expertTokens() * moe.topK() * moe.capacityFactor();
        double up = b == ExpertBias.EAGER ? (s.model().mlp().matrices() - 1) * s.expertFfn() * upBytes : 0;
        return memory.seconds(copies * (s.hidden() * outputBytes + up), 0, (int) kernels);
    }

    /**
     * Kernels of the eager bias loops: per local expert the output bias's multiply and add forward (then one
     * concatenation and one cast), five backward (the cast, two multiplies, two sums), one more each way per expert
     * for an eager up-projection bias.
     */
    static double biasKernels(LayerShape s, boolean forward) {
        ExpertBias b = eagerBias(s);
        if (b == ExpertBias.FUSED) {
            return 0;
        }
        double local = (double) s.model().moe().experts() / s.plan().ep();
        double perExpert = (forward ? 2 : 5) + (b == ExpertBias.EAGER ? 1 : 0);
        return local * perExpert + (forward ? 2 : 1) + (b == ExpertBias.EAGER ? 1 : 0);
    }

    private static ExpertBias eagerBias(LayerShape s) {
        return !s.model().expertBias() || s.moeFastPath() ? ExpertBias.FUSED : s.plan().software().moeExpertBias();
    }

    /**
     * Dispatch and combine: two all-to-alls of every routed copy of the device's tokens over the EP group. A
     * device-initiated (flex) dispatcher crossing scale-up domains sends a token over the scale-out network once per
     * destination domain and forwards it inside that domain (DeepEP internode kernels, DeepSeek-V3 sec. 3.2.2), and
     * its combine reduces inside the domain before sending back: the scale-out bytes are the token times the
     * other domains its experts fall in.
     */
    double exchange(LayerShape s) {
        MoeSpec moe = s.model().moe();
        if (s.ep().size() == 1) {
            return 0;
        }
        double bytes = s.expertTokens() * moe.topK() * moe.capacityFactor() * s.hidden() * ACT_BYTES;
        if (s.plan().software().moeDispatcher() == MoeDispatcher.FLEX && s.ep().crossesDomains()) {
            double remote = s.expertTokens() * remoteDomainsPerToken(moe.experts(), moe.topK(), s.ep().domains())
                    * s.hidden() * ACT_BYTES;
            return collectives.repeat(2, collectives.hierarchicalAllToAll(bytes, remote, s.ep()));
        }
        return collectives.repeat(2, collectives.allToAll(bytes, s.ep()));
    }

    /**
     * Other domains a token's top-k experts fall in when routing is balanced (each of the k experts drawn without
     * replacement from the E experts, spread evenly over the D domains of the EP group): a given domain holds none of
     * them with probability q = C(E - E/D, k) / C(E, k), so (D - 1)(1 - q) of the other domains receive the token.
     */
    static double remoteDomainsPerToken(int experts, int topK, int domains) {
        double perDomain = (double) experts / domains;
        double missed = 1;
        for (int i = 0; i < topK; i++) {
            missed *= Math.max(0, experts - perDomain - i) / (experts - i);
        }
        return (domains - 1) * (1 - missed);
    }

    /**
     * Kernels of one MoE forward: the fixed ones plus two GEMMs per local expert (Transformer Engine's GroupedLinear
     * issues one cuBLAS GEMM per expert) and, for FP8, a quantize per expert input; the fused MoE path runs two grouped
     * kernels and one quantization.
     */
    static double forwardKernels(LayerShape s) {
        MoeSpec moe = s.model().moe();
        double local = (double) moe.experts() / s.plan().ep();
        boolean lowPrecision = ModelStateMemory.lowPrecision(s.plan());
        double experts = s.moeFastPath() ? 3 : local * (lowPrecision ? 4 : 2);
        return FORWARD_FIXED_KERNELS + experts + (moe.sharedExperts() > 0 ? 4 : 0)
                + (sortsByLocalExpert(s) ? SORT_KERNELS : 0);
    }

    /**
     * Host-side wait per MoE layer forward: dropless routing makes the tokens per expert a device value the host needs
     * (the grouped GEMM takes its per-expert sizes as a host list, the all-to-all its split sizes), so the GPU drains
     * and then waits while the host launches the kernels up to the exchange (about a permutation's worth, 4 kernels).
     * Every Megatron-core 0.15 dispatcher does it: all-to-all (_maybe_dtoh_and_synchronize, also with EP 1,
     * "before_finish"), DeepEP ("the CPU will wait for GPU's signal to arrive", fused_a2a.py), HybridEP (token counts
     * returned on the host, use_host_meta). Backward reuses the host sizes saved in forward and never syncs.
     */
    static double syncKernels() {
        return SYNC_KERNELS;
    }

    private double pair(double m, double n, double k, Precision p) {
        return gemm.seconds(m, k, n, p) + gemm.seconds(k, n, m, p);
    }
}
