package io.ridgeline.engine.inference;

import io.ridgeline.engine.energy.ChipEnergy;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates one inference point: prefill (TTFT), decode (TPOT as the context grows), end-to-end latency, static and
 * continuous-batching throughput, KV-cache capacity, memory, feasibility, bottleneck and energy (MODEL.md sec. 7).
 *
 * <p>Lifecycle: per (model, system, plan) the shapes and rates are computed once ({@link Replica}) and kept while the
 * next call uses the same three objects (identity), so a sweep over batches and lengths reuses them. Not
 * thread-safe: one instance per thread / Spark partition.
 */
public final class InferenceStep {
    private final HardwareCatalog catalog;
    private final Breakdown acc = new Breakdown();
    private final Breakdown scratch = new Breakdown();
    private final Bottleneck.Tally tally = new Bottleneck.Tally();
    private ModelSpec lastModel;
    private SystemSpec lastSystem;
    private InferencePlan lastPlan;
    private GemmModel gemm;
    private Replica replica;
    private PrefillTime prefill;
    private DecodeTime decode;
    private InferenceMemory memory;
    private ContinuousBatching batching;
    private ChipEnergy energyModel;

    public InferenceStep() {
        this(HardwareCatalog.bundled());
    }

    public InferenceStep(HardwareCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Problems that make a plan impossible for a model (shape, {@link ShapeRules}), each naming the field; empty when
     * the plan fits the model. Used both for user errors ({@link #validate}) and for infeasible sweep points
     * ({@link #evaluate}).
     */
    public static List<InputError> check(ModelSpec model, InferencePlan plan) {
        List<InputError> errors = new ArrayList<>();
        ShapeRules.model(model, plan.tp(), plan.pp(), 1, plan.ep(), "inference plan", errors);
        return errors;
    }

    /** Throws {@link InvalidInputException} naming every field that does not fit (single-point commands). */
    public static void validate(ModelSpec model, SystemSpec system, InferencePlan plan) {
        List<InputError> errors = check(model, plan);
        if (plan.gpus() > system.gpuCount()) {
            errors.add(InputError.of("inference plan", "plan.tp*ep*pp*dp",
                    "at most the system's " + system.gpuCount() + " GPUs", Integer.toString(plan.gpus())));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /** Evaluates one point. Shape and GPU-count problems and memory overflow come back as infeasible results. */
    public InferenceResult evaluate(ModelSpec model, SystemSpec system, InferencePlan plan, InferenceWorkload w) {
        // A (model, plan) pair that was prepared before has passed the shape check: skip it (no allocation).
        // The first-problem check allocates nothing for a plan that fits; the list is built only for one that does not.
        if ((model != lastModel || plan != lastPlan)
                && ShapeRules.model(model, plan.tp(), plan.pp(), 1, plan.ep(), "inference plan", null) != null) {
            return InferenceResult.invalid(Infeasibility.PLAN_SHAPE, InputError.details(check(model, plan)),
                    plan.gpusPerReplica(), w.batch(), w.outputTokens(), w.mode());
        }
        if (plan.gpus() > system.gpuCount()) {
            return InferenceResult.invalid(Infeasibility.GPU_COUNT, "plan needs " + plan.gpus() + " GPUs but the system has "
                    + system.gpuCount(), plan.gpusPerReplica(), w.batch(), w.outputTokens(), w.mode());
        }
        prepare(model, system, plan);
        return w.mode() == ServingMode.STATIC ? staticBatch(plan, w) : continuous(plan, w);
    }

    private InferenceResult staticBatch(InferencePlan plan, InferenceWorkload w) {
        Replica r = replica;
        int gpus = plan.gpusPerReplica();

        InferenceMemory memory = this.memory;
        int context = w.maxContextTokens();
        int maxBatch = memory.maxBatch(w.inputTokens(), context);
        double kvBytes = memory.kvCacheBytes(w.batch(), context);
        double activationBytes = memory.activationBytes(w.batch(), w.inputTokens());
        double needBytes = memory.totalBytes(w.batch(), w.inputTokens(), context);
        Infeasibility why = Infeasibility.NONE;
        String detail = "";
        if (needBytes > memory.capacityBytes()) {
            why = Infeasibility.MEMORY_CAPACITY;
            detail = null; // built on demand from the numbers: InferenceResult.detail()
        }

        // Static batch: request overhead, prefill (first token), then outputTokens - 1 decode steps.
        acc.reset();
        double request = r.fixed.requestSeconds();
        acc.overhead(request, 1);
        double prefillSeconds = prefill.seconds(w.batch(), w.inputTokens(), acc, 1);
        double ttft = request + prefillSeconds;
        double decodeSeconds = decode.generationSeconds(w.batch(), w.inputTokens(), w.outputTokens(), acc, 1);
        int steps = w.outputTokens() - 1;
        double tpot = steps > 0 ? decodeSeconds / steps
                : decode.stepSeconds(w.batch(), w.inputTokens() + 1, scratch, 0);
        double e2e = ttft + decodeSeconds;
        double tokensPerSecondPerGpu = (double) w.batch() * w.outputTokens() / e2e / gpus;

        // Continuous batching at the workload's concurrency: rb requests decode together; during one request's
        // lifetime each of the rb slots is refilled once, and each refill's prefill stalls the running batch.
        int servingBatch = Math.min(w.concurrency(), maxBatch);
        double serving = Double.NaN;
        if (servingBatch >= 1) {
            double lifetime = decode.generationSeconds(servingBatch, w.inputTokens(), w.outputTokens(), scratch, 0)
                    + servingBatch * prefill.seconds(1, w.inputTokens(), scratch, 0);
            serving = (double) servingBatch * w.outputTokens() / lifetime / gpus;
        }
        return result(plan, w, why, detail, ttft, prefillSeconds, tpot, decodeSeconds, e2e, tokensPerSecondPerGpu,
                serving, Math.max(servingBatch, 0), maxBatch, kvBytes, activationBytes, memory.reserveBytes(),
                w.batch(), w.batch());
    }

    /**
     * Saturated and online continuous batching ({@link ContinuousBatching}). The breakdown and energy cover one
     * request's lifetime of average steps (ttft + (O - 1) tpot) with the requests in flight.
     */
    private InferenceResult continuous(InferencePlan plan, InferenceWorkload w) {
        ContinuousBatching cb = batching;
        acc.reset();
        switch (w.mode()) {
            case SATURATED -> cb.saturated(w.inputTokens(), w.outputTokens(), w.concurrency(), w.requests(), acc);
            case ONLINE -> {
                if (w.concurrency() > 0) {
                    cb.onlineClients(w.concurrency(), w.inputTokens(), w.outputTokens(), acc);
                } else {
                    cb.onlineRate(w.requestsPerSecond(), w.inputTokens(), w.outputTokens(), acc);
                }
            }
            default -> throw new IllegalStateException("not a continuous mode: " + w.mode());
        }
        int gpus = plan.gpusPerReplica();
        int context = w.maxContextTokens();
        int maxBatch = (int) Math.min(Integer.MAX_VALUE, cb.maxConcurrency);
        double kvBytes = cb.kvPoolBytes;
        double activationBytes = workspaceBytes(cb.stepTokens);
        double reserve = plan.runtime().runtimeReserveBytes();
        Infeasibility why = Infeasibility.NONE;
        String detail = "";
        // Infeasible when not one request fits (KV pool, max batch, token budget). Fewer than one request in flight on
        // average is feasible: one closed-loop client spends part of each cycle outside the engine (request_overhead).
        if (cb.maxConcurrency < 1) {
            why = Infeasibility.MEMORY_CAPACITY;
            detail = null;
            kvBytes = memory.kvCacheBytes(1, context);
        }
        double tpot = cb.interTokenSeconds;
        double ttft = cb.ttftSeconds;
        double decodeSeconds = (w.outputTokens() - 1) * tpot;
        double e2e = ttft + decodeSeconds;
        double perGpu = cb.outputTokensPerSecond / gpus;
        // The accumulator holds one average step: scale it to a request's lifetime of steps.
        double lifetimeSteps = Double.isFinite(e2e) && cb.stepSeconds > 0 ? e2e / cb.stepSeconds : 0;
        acc.scale(lifetimeSteps);
        int inFlight = (int) Math.round(cb.concurrency);
        return result(plan, w, why, detail, ttft, cb.stepSeconds, tpot, decodeSeconds, e2e, perGpu, perGpu,
                inFlight, maxBatch, kvBytes, activationBytes, reserve, Math.max(inFlight, 1), cb.concurrency);
    }

    /**
     * The latency-throughput curve users plot: for each number of online clients, one request's output speed
     * (tokens/s per user, 1 / inter-token latency) and the replica's output tokens/s per GPU. Prepares the replica
     * once and fills the caller's arrays (no allocation per point); NaN where the plan is invalid or does not fit.
     */
    public void curve(ModelSpec model, SystemSpec system, InferencePlan plan, int inputTokens, int outputTokens,
                      int[] clients, double[] tokensPerSecondPerUser, double[] tokensPerSecondPerGpu) {
        boolean ok = check(model, plan).isEmpty() && plan.gpus() <= system.gpuCount();
        if (ok) {
            prepare(model, system, plan);
        }
        for (int i = 0; i < clients.length; i++) {
            if (!ok) {
                tokensPerSecondPerUser[i] = Double.NaN;
                tokensPerSecondPerGpu[i] = Double.NaN;
                continue;
            }
            batching.onlineClients(clients[i], inputTokens, outputTokens, null);
            boolean fits = batching.concurrency >= 1;
            tokensPerSecondPerUser[i] = fits ? 1 / batching.interTokenSeconds : Double.NaN;
            tokensPerSecondPerGpu[i] = fits ? batching.outputTokensPerSecond / plan.gpusPerReplica() : Double.NaN;
        }
    }

    /**
     * The decode pool of disaggregated serving at saturation: fills {@code out} with {requests in flight, step
     * seconds, output tokens/s of the replica, requests the KV cache and limits allow, the step's bottleneck ordinal};
     * NaN when the plan is invalid.
     * {@code cap} limits the requests in flight (0: none). See {@link DisaggregatedServing}.
     */
    void decodePool(ModelSpec model, SystemSpec system, InferencePlan plan, int inputTokens, int outputTokens,
                    double cap, double[] out) {
        if (!check(model, plan).isEmpty() || plan.gpus() > system.gpuCount()) {
            java.util.Arrays.fill(out, Double.NaN);
            return;
        }
        prepare(model, system, plan);
        acc.reset();
        batching.decodeOnly(inputTokens, outputTokens, cap, acc);
        out[0] = batching.concurrency;
        out[1] = batching.stepSeconds;
        out[2] = batching.outputTokensPerSecond;
        out[3] = batching.maxConcurrency;
        out[4] = bottleneck(acc).ordinal();
    }

    /** KV-cache bytes of one token on one GPU of the plan's replica (prepared by the last call). */
    double kvBytesPerTokenPerGpu() {
        return memory.kvBytesPerToken();
    }

    private double workspaceBytes(double tokens) {
        return memory.activationBytes(1, tokens) - memory.activationBytes(1, 0);
    }

    private InferenceResult result(InferencePlan plan, InferenceWorkload w, Infeasibility why, String detail,
                                   double ttft, double prefillSeconds, double tpot, double decodeSeconds, double e2e,
                                   double tokensPerSecondPerGpu, double serving, int servingBatch, int maxBatch,
                                   double kvBytes, double activationBytes, double reserveBytes, int batch,
                                   double concurrency) {
        Replica r = replica;
        int gpus = plan.gpusPerReplica();
        Bottleneck bottleneck = why == Infeasibility.MEMORY_CAPACITY ? Bottleneck.MEMORY_CAPACITY : bottleneck(acc);
        // MODEL.md sec. 8, bottom-up: the accumulator holds one rank of each stage (all layers in sequence), so the
        // replica's work is that times the ranks per stage; static power runs on every GPU for the whole window.
        double ranksPerStage = (double) gpus / plan.pp();
        double dramBytes = acc.dramBytes * ranksPerStage / gpus;
        double networkBytes = (acc.scaleUpBytes + acc.scaleOutBytes) * ranksPerStage / gpus;
        double dynamic = energyModel.dynamicJoules(ranksPerStage * acc.flops, r.compute,
                ranksPerStage * acc.dramBytes, ranksPerStage * acc.scaleUpBytes, ranksPerStage * acc.scaleOutBytes);
        double energy = energyModel.joules(dynamic, e2e, gpus);
        double power = energy / e2e / gpus;
        return new InferenceResult(why, detail, ttft, prefillSeconds, tpot, decodeSeconds, e2e, tokensPerSecondPerGpu,
                serving, servingBatch, maxBatch, memory.weightBytes(), kvBytes, activationBytes, reserveBytes,
                memory.capacityBytes(), acc.computeSeconds, acc.memorySeconds,
                acc.scaleUpSeconds + acc.scaleOutSeconds, acc.overheadSeconds, bottleneck, energy, power, gpus,
                batch, w.outputTokens(), dramBytes, networkBytes, w.mode(), concurrency, 1 / tpot,
                ranksPerStage * acc.flops, acc.scaleOutBytes * ranksPerStage / gpus);
    }

    private Bottleneck bottleneck(Breakdown b) {
        return tally.compute(b.computeSeconds).add(Bottleneck.MEMORY_BANDWIDTH, b.memorySeconds)
                .add(Bottleneck.SCALE_UP_NETWORK, b.scaleUpSeconds).add(Bottleneck.SCALE_OUT_NETWORK, b.scaleOutSeconds)
                .add(Bottleneck.OVERHEAD, b.overheadSeconds).largest();
    }

    private void prepare(ModelSpec model, SystemSpec system, InferencePlan plan) {
        if (model == lastModel && system == lastSystem && plan == lastPlan) {
            return;
        }
        // The GEMM model (and its shape cache) depends only on the chip: keep it across plans, so a sweep over plans
        // of one chip does not recompute every shape for each plan.
        if (gemm == null || gemm.chip() != system.chip()) {
            gemm = new GemmModel(system.chip());
        }
        if (system != lastSystem) {
            energyModel = ChipEnergy.of(system, TechnologyCatalog.bundled(), gemm);
        }
        // The formats the runtime really runs (a checkpoint served as shipped), resolved once per plan.
        InferencePlan served = ShippedCheckpoint.served(model, system.chip(), plan);
        replica = new Replica(model, system, served, catalog, gemm);
        prefill = new PrefillTime(replica);
        decode = new DecodeTime(replica);
        memory = new InferenceMemory(model, served, system.chip().memoryBytes(), replica.w4a16Experts);
        batching = new ContinuousBatching(replica, memory);
        lastModel = model;
        lastSystem = system;
        lastPlan = plan;
    }
}
