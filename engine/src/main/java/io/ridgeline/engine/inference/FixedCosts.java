package io.ridgeline.engine.inference;

import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.hardware.CollectiveCurve;
import io.ridgeline.engine.software.ServingBehaviour;

/**
 * The per-kernel, per-all-reduce, per-token and per-request fixed costs of an inference runtime: what makes batch-1
 * decode slower than weights / bandwidth (MODEL.md sec. 7: Llama-2-7B on A100 takes ~10.9 ms per token, not 6.6 ms,
 * and is only ~1.8x faster at TP8 than at TP1). Every constant says where it comes from; docs/INFERENCE.md repeats
 * them. One instance per (system, CUDA-graph flag).
 */
public final class FixedCosts {
    /**
     * Kernels per transformer layer in one decode step of a FasterTransformer / TensorRT-LLM style Llama layer,
     * all-reduces excluded: input RMSNorm, QKV GEMM, fused rotary + KV-cache write, masked multi-head attention, output
     * GEMM, fused residual-add + RMSNorm, gate GEMM, up GEMM, SiLU x mul, down GEMM, residual add = 11 (count of the
     * kernels in FasterTransformer's GPT/LLaMA decoder layer; assumption for other runtimes).
     */
    public static final int DECODE_KERNELS_PER_LAYER = 11;
    /** Kernels outside the layers per decode step: embedding lookup, final norm, LM head GEMM, softmax/top-k sampling. */
    public static final int DECODE_KERNELS_PER_STEP = 4;
    /**
     * Extra kernels of an MoE layer over the dense MLP's gate, up, activation and down: vLLM's fused_moe path runs
     * topk_softmax, moe_align_block_size, the w13 grouped GEMM, silu_and_mul, the w2 grouped GEMM and moe_sum (7 for
     * the dense 4, router GEMM counted as a GEMM), so 3 more per layer (count of vLLM's fused_moe kernels).
     */
    public static final int MOE_EXTRA_KERNELS_PER_LAYER = 3;
    /**
     * Bus-efficiency cap of an all-to-all: NCCL reaches ~80% of link bandwidth on ring-class collectives, as
     * CollectiveModel caps reduce-scatter / all-gather / all-to-all (its RING_EFFICIENCY_CAP).
     */
    public static final double ALL_TO_ALL_EFFICIENCY_CAP = 0.80;
    /** Non-GEMM kernels per layer in prefill (norms, rotary, attention, residuals, activation). */
    public static final int PREFILL_ELEMENTWISE_KERNELS_PER_LAYER = 6;

    /**
     * GPU-side cost every short kernel pays on top of its bytes / bandwidth: filling the SMs, DRAM latency before the
     * stream reaches full rate, and the tail wave. Assumption (order of the DRAM latency ~0.5-1 us plus a partial
     * last wave); together with the family's launch cost it gives ~7 us per decode kernel.
     */
    public static final double KERNEL_TAIL_SECONDS = 3.0e-6;
    /**
     * Cost per kernel node when the step is replayed as a CUDA graph, replacing the host launch: NVIDIA Technical Blog
     * "Getting Started with CUDA Graphs" (A. Gray, 2019) measures ~3.4 us per 2.9 us kernel in a graph vs ~3.8 us with
     * back-to-back stream launches, i.e. ~0.5 us per node.
     */
    public static final double GRAPH_NODE_SECONDS = 0.5e-6;

    /**
     * Fraction of the nccl-tests small-message latency a TP all-reduce in an inference runtime pays. The engine's
     * per-step latency comes from the nccl-tests floor (CollectiveCurve), which includes the harness; runtimes use
     * custom one-shot all-reduce kernels. 0.6 puts the TP2 all-reduce (launch + 0.6 x 2 steps) at ~13 us on A100 and
     * ~9 us on H100, the small-message custom all-reduce latencies measured by sglang PR #2688 (A100, 4 KB: vLLM
     * 11.3-14.2 us, TRT-LLM kernel 13.6-16.5 us over 2-8 GPUs) and sglang PR #2904 (H100 without graphs, 4 KB: vLLM
     * 8.5-9.3 us). Latency still grows with log2(p) like NCCL's tree (MODEL.md sec. 4).
     */
    public static final double INFERENCE_ALLREDUCE_LATENCY_FRACTION = 0.6;

    private final double perKernelSeconds;
    private final double allReduceBaseSeconds;
    private final double allReduceStepSeconds;
    private final double ncclStepSeconds;
    private final double eagerKernelSeconds;
    private final double hostSecondsPerStep;
    private final double requestSeconds;
    private final double hostSecondsPerRequest;
    private final double eagerHostSecondsPerKernel;

    /**
     * @param cudaGraphs decode steps replayed as a CUDA graph
     * @param runtime    the serving runtime: host cost per step and front-end cost per request (stack profile)
     */
    public FixedCosts(SystemSpec system, boolean cudaGraphs, ServingBehaviour runtime) {
        double eager = system.chip().family().kernelLaunchSeconds();
        double launch = cudaGraphs ? GRAPH_NODE_SECONDS : eager;
        this.perKernelSeconds = launch + KERNEL_TAIL_SECONDS;
        this.eagerKernelSeconds = eager + KERNEL_TAIL_SECONDS;
        this.allReduceBaseSeconds = launch;
        this.allReduceStepSeconds = INFERENCE_ALLREDUCE_LATENCY_FRACTION * system.scaleUpStepLatencySeconds();
        this.ncclStepSeconds = system.scaleUpStepLatencySeconds();
        this.hostSecondsPerStep = runtime.hostSecondsPerStep();
        this.requestSeconds = runtime.requestSeconds();
        this.hostSecondsPerRequest = runtime.hostSecondsPerRequest();
        this.eagerHostSecondsPerKernel = runtime.eagerHostSecondsPerKernel();
    }

    /** Fixed cost of one short kernel launched eagerly (a step the runtime does not replay as a graph). */
    public double eagerKernelSeconds() {
        return eagerKernelSeconds;
    }

    /** Fixed cost of one short kernel (launch or graph node, plus the GPU-side ramp and tail). */
    public double perKernelSeconds() {
        return perKernelSeconds;
    }

    /** Latency of a small-message all-reduce over {@code ranks} GPUs inside one scale-up domain. */
    public double allReduceLatencySeconds(int ranks) {
        if (ranks <= 1) {
            return 0;
        }
        return allReduceBaseSeconds + CollectiveCurve.latencySteps(ranks) * allReduceStepSeconds;
    }

    /**
     * Latency of a small-message all-reduce that the runtime hands to NCCL: its launch (or graph node) and the whole
     * nccl-tests floor, one measured step per latency step (CollectiveCurve), not the custom kernel's fraction of it.
     */
    public double ncclAllReduceLatencySeconds(int ranks) {
        if (ranks <= 1) {
            return 0;
        }
        return allReduceBaseSeconds + CollectiveCurve.latencySteps(ranks) * ncclStepSeconds;
    }

    /** One latency step of NCCL's measured small-message floor on this system (CollectiveCurve). */
    public double ncclStepSeconds() {
        return ncclStepSeconds;
    }

    /** Fixed host/kernel part of one MoE all-to-all (its launch or graph node). */
    public double allToAllBaseSeconds() {
        return allReduceBaseSeconds;
    }

    /**
     * Latency of a small-message all-to-all over {@code ranks} GPUs inside one scale-up domain: the TP all-reduce's
     * treatment (launch + 0.6 x the nccl-tests step latency per step) with CollectiveModel's (p - 1) / 2 all-to-all
     * steps (pairwise exchanges, two in flight per step).
     */
    public double allToAllLatencySeconds(int ranks) {
        if (ranks <= 1) {
            return 0;
        }
        return allReduceBaseSeconds + (ranks - 1) / 2.0 * allReduceStepSeconds;
    }

    /** Host cost per engine step (the runtime's scheduler and input preparation; stack profile host_step_ms). */
    public double hostSecondsPerStep() {
        return hostSecondsPerStep;
    }

    /**
     * Host cost of one engine step that schedules {@code requests} requests on one scheduler (stack profile
     * host_step_ms plus host_request_us per request).
     */
    public double hostSecondsPerStep(double requests) {
        return hostSecondsPerStep + hostSecondsPerRequest * requests;
    }

    /**
     * Host cost of one engine step that schedules {@code requests} requests and runs eagerly, launching
     * {@code eagerKernels} kernels from Python (stack profile eager_host_us_per_kernel; 0 for a graph replay or a
     * compiled engine): the per-request work plus the dispatch of every operator.
     */
    public double hostSecondsPerStep(double requests, double eagerKernels) {
        return hostSecondsPerStep(requests) + eagerHostSecondsPerKernel * eagerKernels;
    }

    /** Front-end cost per request before its first token (stack profile request_overhead_ms). */
    public double requestSeconds() {
        return requestSeconds;
    }
}
