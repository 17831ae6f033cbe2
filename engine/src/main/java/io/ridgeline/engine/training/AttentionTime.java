package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.software.AttentionKernel;

/**
 * The attention core (the s x s part) of one layer for one micro-batch: unfused (Megatron 2021-22: batched QK^T and
 * score x V GEMMs around a softmax and dropout that read and write every score) or a fused kernel whose rate is the
 * chip generation's measured share of its 16-bit peak for that kernel (families.csv). Attention runs in 16 bits even
 * in FP8 plans (Transformer Engine's default keeps dot-product attention in bf16).
 */
final class AttentionTime {
    /**
     * FlashAttention in Triton (MPT/llm-foundry 2023) against FlashAttention-2: Dao 2023 (FlashAttention-2, sec. 4.1,
     * Fig. 4, A100) reports FlashAttention-2 1.3-2.5x faster than the Triton implementation; the geometric middle of
     * that range, 1.8x, is used.
     */
    static final double TRITON_OVER_FLASH2 = 1 / 1.8;
    /**
     * Keys per key tile of the fused kernels (FlashAttention-2/3/4 and cuDNN tile 128 keys). A causal layer computes
     * half of each diagonal tile in vain (64 keys per query on average); a sliding window of w keys touches the
     * ceil((w + 128) / 128) tiles its span covers. Each query tile also pays a fixed cost, the family's
     * {@code attention_tile_overhead_keys} F, so c useful keys run at c / (computed keys + F) of the long-sequence
     * rate: c / (c + 64 + F) on a causal layer (H100, F = 64: FlashAttention-3's forward sweep, 430-621 TFLOP/s at
     * 0.5k-16k, pytorch/benchmark PR #2391; Blackwell, F = 590: cuDNN 9.22's causal sweeps on GB200/GB300, and its
     * 128-key window at 161 TFLOP/s on GB200 against 156 predicted; families.csv).
     */
    static final double KEY_TILE = 128;
    private static final double REFERENCE_HEAD_DIM = 128;

    /**
     * Fused backward over forward time: 5 matmuls (recompute S, dV, dP, dQ, dK) against the forward's 2 (Dao 2023
     * sec. 3.1.2), run at a lower rate: FlashAttention-2 reaches up to 73% of A100 peak forward and 63% backward (Dao
     * 2023 sec. 4.1), so 2.5 x 73 / 63 = 2.9.
     */
    static final double BACKWARD_OVER_FORWARD = 2.5 * 73 / 63;

    private final GemmModel gemm;
    private final MemoryBoundOp memory;
    private final Chip chip;
    /** d0: the special-function units' time for one exponential, in head-width units of tensor-core work. */
    private final double expHeadWidth;
    /** d0 of FP8 attention: the tensor cores run twice as fast, the exponentials do not. */
    private final double expHeadWidthFp8;

    AttentionTime(GemmModel gemm, MemoryBoundOp memory) {
        this.gemm = gemm;
        this.memory = memory;
        this.chip = gemm.chip();
        double expPerSecond = chip.smCount() * chip.clockHz() * chip.family().expPerClockPerSm();
        this.expHeadWidth = chip.peakFlopsPerSecond(Precision.BF16) / (4 * expPerSecond);
        this.expHeadWidthFp8 = chip.peakFlopsPerSecond(Precision.FP8) / (4 * expPerSecond);
    }

    double gemmForward(LayerShape s) {
        if (s.plan().flashAttention()) {
            return fusedSeconds(s, false);
        }
        double batch = s.microBatch() * s.localHeads();
        Precision p = scoresPrecision(s);
        return gemm.seconds(batch, s.querySeq(), s.keySeq(), s.headDim(), p)      // Q K^T
                + gemm.seconds(batch, s.querySeq(), s.headDim(), s.keySeq(), p); // scores x V
    }

    double gemmBackward(LayerShape s) {
        if (s.plan().flashAttention()) {
            // FP8 attention's backward (the fused FP8 MoE path) may not skip the tiles outside a sliding window.
            boolean windowAsFull = s.moeFastPath() && !s.plan().software().fp8WindowBackwardSkips();
            return BACKWARD_OVER_FORWARD * fusedSeconds(s, windowAsFull);
        }
        double batch = s.microBatch() * s.localHeads();
        Precision p = scoresPrecision(s);
        return gemm.seconds(batch, s.querySeq(), s.keySeq(), s.headDim(), p)   // dP = dO V^T
                + gemm.seconds(batch, s.keySeq(), s.headDim(), s.querySeq(), p) // dV = P^T dO
                + gemm.seconds(batch, s.querySeq(), s.headDim(), s.keySeq(), p) // dQ = dS K
                + gemm.seconds(batch, s.keySeq(), s.headDim(), s.querySeq(), p); // dK = dS^T Q
    }

    /**
     * Unfused scale-mask-softmax (read 2 B, write 2 B per score) and attention dropout (read 2, write 2, mask 1). A
     * fused kernel under context parallelism merges each ring step's partial output into the running one
     * (Transformer Engine context_parallel.py flash_attn_fwd_out_correction: read the step's 16-bit output, read and
     * write the fp32 accumulator: 10 B per output element and step).
     */
    double memoryForward(LayerShape s) {
        if (s.plan().flashAttention()) {
            int steps = s.cp().size();
            return steps == 1 ? 0 : memory.seconds(steps * s.tokens() * s.qWidth() * 10, 0, steps);
        }
        double scores = s.microBatch() * s.localHeads() * s.querySeq() * s.keySeq();
        double bytes = scores * 4 + (s.dropout() ? scores * 5 : 0);
        return memory.seconds(bytes, scores * 5, s.dropout() ? 2 : 1);
    }

    /**
     * Softmax backward (read P and dP, write dS: 6 B) and dropout backward (read grad and mask, write: 5 B). A fused
     * kernel under context parallelism accumulates each ring step's dQ in fp32 and the dK, dV that travel the ring
     * (read and write 8 B per element and step), at the width the kernel sees K and V (ContextParallelTime.kvWidth:
     * expanded to the query heads where the model code repeats them).
     */
    double memoryBackward(LayerShape s) {
        if (s.plan().flashAttention()) {
            int steps = s.cp().size();
            double kv = 2 * ContextParallelTime.kvWidth(s);
            return steps == 1 ? 0 : memory.seconds(steps * s.tokens() * (s.qWidth() + kv) * 8, 0, steps);
        }
        double scores = s.microBatch() * s.localHeads() * s.querySeq() * s.keySeq();
        double bytes = scores * 6 + (s.dropout() ? scores * 5 : 0);
        return memory.seconds(bytes, scores * 4, s.dropout() ? 2 : 1);
    }

    /** Kernels of the attention core, forward: 1 fused, or QK^T, softmax, dropout and score x V. */
    static double forwardKernels(LayerShape s) {
        return s.plan().flashAttention() ? 1 : 4;
    }

    /**
     * Fused causal attention forward: each query against its causal keys (half the s x s block on full layers, the
     * window on sliding-window layers), QK^T at the query/key width and score x V at the value width, at the kernel's
     * rate on this chip generation, with the tile factor of each layer type; {@code windowAsFull} charges a
     * sliding-window layer a full causal layer's time (a backward that does not skip the tiles outside the window).
     */
    private double fusedSeconds(LayerShape s, boolean windowAsFull) {
        double perKey = 2 * s.microBatch() * s.localHeads() * s.querySeq() * (s.headDim() + s.valueDim());
        // The fused FP8 MoE path runs dot-product attention in FP8 (Transformer Engine fp8_dot_product_attention).
        boolean f8 = s.moeFastPath();
        Precision p = f8 ? Precision.FP8 : Precision.BF16;
        double rate = chip.peakFlopsPerSecond(p) * kernelFraction(s.plan().software().attention())
                * headDimFactor(s, f8 ? expHeadWidthFp8 : expHeadWidth);
        // Context parallelism splits each query's keys over cp ring steps, one kernel call each (Transformer Engine
        // p2p context parallelism), so the per-call tile overhead falls on s / (2 cp) useful keys.
        double full = s.keySeq() / 2;
        double fullSeconds = perKey * full / (rate * causalFactor(full / s.cp().size()));
        double seconds = (1 - s.windowShare()) * fullSeconds;
        if (s.windowShare() > 0) {
            double w = s.windowKeys();
            seconds += s.windowShare() * (windowAsFull ? fullSeconds : perKey * w / (rate * windowFactor(w)));
        }
        return seconds + chip.family().kernelLaunchSeconds();
    }

    /** Share of the long-sequence rate at {@code causalKeys} useful keys per query: c / (c + 64 + F). */
    private double causalFactor(double causalKeys) {
        return causalKeys / (causalKeys + KEY_TILE / 2 + chip.family().attentionTileOverheadKeys());
    }

    /** Share of the long-sequence rate of a sliding window of w keys: w / (ceil((w + 128) / 128) x 128 + F). */
    private double windowFactor(double windowKeys) {
        double computed = Math.ceil((windowKeys + KEY_TILE) / KEY_TILE) * KEY_TILE;
        return windowKeys / (computed + chip.family().attentionTileOverheadKeys());
    }

    /**
     * Rate at this head width over the rate at head dim 128, for the Hopper/Blackwell-generation kernels: per score the
     * kernel does 2 (d_qk + d_v) tensor-core FLOPs and one exponential on the special-function units, which the
     * tensor cores wait for, so the rate goes as d / (d + d0) with d0 = 16-bit peak / (4 x exponential rate): 64 on
     * H100 (FlashAttention-3, Shah et al. 2024 Fig. 5: head dim 64, 128, 256 at 497, 648, 756 TFLOP/s, which d0 = 56
     * fits), 128 on B200 (FlashAttention-4 on B200: head dim 64 at 0.66x the head-dim-128 rate, Dao-AILab
     * flash-attention PR #2605), 64 on Blackwell Ultra (twice the exponential rate). FP8 attention doubles the
     * tensor-core rate and with it d0 (the reference stays the 16-bit kernel at head dim 128).
     */
    private double headDimFactor(LayerShape s, double d0) {
        AttentionKernel k = s.plan().software().attention();
        if (k != AttentionKernel.FLASH3 && k != AttentionKernel.CUDNN) {
            return 1;
        }
        double d = (s.headDim() + s.valueDim()) / 2;
        return d / (d + d0) * (REFERENCE_HEAD_DIM + expHeadWidth) / REFERENCE_HEAD_DIM;
    }

    private double kernelFraction(AttentionKernel k) {
        return switch (k) {
            case FLASH3, CUDNN -> chip.family().fusedAttentionFraction();
            case TRITON -> chip.family().flashFraction() * TRITON_OVER_FLASH2;
            case FLASH2, UNFUSED -> chip.family().flashFraction();
        };
    }

    private static Precision scoresPrecision(LayerShape s) {
        Precision p = s.plan().precision();
        return p == Precision.FP8 || p == Precision.FP4 ? Precision.BF16 : p;
    }
}
