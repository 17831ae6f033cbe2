package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.energy.ChipEnergy;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.Placement;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * One training step of a decoder-only transformer on a cluster: per-layer costs composed into pipeline stages, the
 * 1F1B schedule, data-parallel gradient synchronisation and the optimizer, plus the memory footprint, feasibility and
 * bottleneck. Pure and deterministic; holds per-system operator models, so use one instance per thread (a Spark
 * partition, a benchmark thread).
 */
public final class TrainingStep {
    /**
     * Bytes per local parameter of the fused mixed-precision Adam step: read fp32 grad, master, m, v (16 B), write
     * master, m, v (12 B) and the 16-bit weight (2 B), plus the gradient-norm pass (4 B).
     */
    static final double OPTIMIZER_BYTES_PER_PARAM = 34;

    private final HardwareCatalog catalog;
    private final Bottleneck.Tally tally = new Bottleneck.Tally();
    private SystemSpec cachedSystem;
    private GemmModel gemm;
    private MemoryBoundOp memory;
    private CollectiveModel collectives;
    private LayerTime layerTime;
    private HeadTime headTime;
    private FsdpCommunication fsdp;
    private DataParallelSync dataParallel;
    private ChipEnergy energy;

    public TrainingStep() {
        this(HardwareCatalog.bundled());
    }

    public TrainingStep(HardwareCatalog catalog) {
        this.catalog = catalog;
    }

    /** Evaluates one point; infeasible and ill-shaped plans come back as values with their reason. */
    public TrainingResult evaluate(ModelSpec model, int seqLen, SystemSpec system, TrainingPlan plan) {
        InputError shapeProblem = ShapeRules.training(model, seqLen, plan);
        if (shapeProblem != null) {
            return TrainingResult.invalid(Infeasibility.PLAN_SHAPE, shapeProblem.detail());
        }
        Precision narrow = plan.precision();
        if ((narrow == Precision.FP8 || narrow == Precision.FP4) && !system.chip().supports(narrow)) {
            // No framework emulates FP8/FP4 training (Transformer Engine refuses it below Hopper/Blackwell); the
            // peak's fallback to a wider format would otherwise credit these plans with 1- or 0.5-byte traffic.
            return TrainingResult.invalid(Infeasibility.PLAN_SHAPE, "precision: expected a format "
                    + system.chip().id() + " runs natively, found " + narrow.id());
        }
        if (plan.gpus() != system.gpuCount()) {
            return TrainingResult.invalid(Infeasibility.GPU_COUNT, "plan uses " + plan.gpus() + " GPUs but the system has "
                    + system.gpuCount());
        }
        bind(system);
        TrainingBehaviour sw = plan.software();
        int domain = system.scaleUpDomain();
        Group tp = Placement.group(plan.tp(), 1, domain);
        Group cp = Placement.group(plan.cp(), plan.tp(), domain);
        // Experts whole on a rank (expert TP 1) number their EP ranks from stride 1 (Megatron's expert rank order).
        int epStride = sw.expertTensorParallel() ? plan.tp() * plan.cp() : 1;
        Group ep = Placement.group(plan.ep(), epStride, domain);
        Group dp = Placement.group(plan.dp(), plan.tp() * plan.cp(), domain);
        if (sw.flatDpCollectives() && dp.crossesDomains()) {
            // A flat ring over the data-parallel ranks: every rank's share crosses its own NIC.
            dp = new Group(dp.size(), 1, dp.stride());
        }
        // Routed-expert state is replicated over the expert-data-parallel ranks: etp x ep x edp = tp x cp x dp, with
        // expert TP innermost, then EP (Megatron-core expert rank order).
        int etp = StageParameters.expertTensorParallel(plan);
        int edpSize = Math.max(1, plan.tp() * plan.cp() * plan.dp() / (etp * plan.ep()));
        Group edp = Placement.group(edpSize, sw.expertTensorParallel() ? plan.tp() * plan.cp() * plan.ep()
                : plan.ep(), domain);
        boolean ppCrosses = Placement.pipelineCrossesDomains(plan.tp() * plan.cp() * plan.dp(), domain);
        LayerShape shape = LayerShape.of(model, seqLen, plan, tp, cp, ep, system.chip().supports(Precision.FP4));

        // 0. Memory first: it decides what an AUTO plan recomputes.
        StageParameters params = StageParameters.of(model, plan);
        double weightBytes = ModelStateMemory.weights(params, plan) + ModelStateMemory.gatheredUnits(params, plan);
        double gradientBytes = ModelStateMemory.gradients(params, plan);
        double optimizerBytes = ModelStateMemory.optimizer(params, plan);
        double capacity = system.chip().memoryBytes();
        double reserve = sw.reserveBytes();
        RecomputeChoice recompute = RecomputeChoice.of(model, seqLen, plan,
                capacity - weightBytes - gradientBytes - optimizerBytes - reserve);
        double activationBytes = StepMemory.activationBytes(model, seqLen, plan, recompute.fullFraction(),
                recompute.selective());
        double total = weightBytes + gradientBytes + optimizerBytes + activationBytes + reserve;

        // 1. One layer, one micro-batch. The byte meters (DRAM, scale-up, scale-out) are read around each piece, so
        // the energy model counts what the pieces move without a second pass or any allocation.
        double dram0 = meteredDramBytes();
        double up0 = collectives.meteredScaleUpBytes();
        double out0 = collectives.meteredScaleOutBytes();
        Cost layerForward = layerTime.forward(shape);
        Cost layerBackward = layerTime.backward(shape, recompute.fullFraction(), recompute.selective());
        Cost layer = layerForward.plus(layerBackward);
        double layerDram = meteredDramBytes() - dram0;
        double layerUp = collectives.meteredScaleUpBytes() - up0;
        double layerOut = collectives.meteredScaleOutBytes() - out0;

        // 2. Stages (PipelineLayout): the most loaded holds ceil(L/p) layers (uneven splits such as DeepSeek-V3's 61
        // layers over 16 stages are allowed), or, when the embedding and the loss count as pipeline layers, the first
        // and last stages hold one layer fewer beside them; the first adds the embedding, the last the LM head and
        // loss.
        int p = plan.pp();
        int v = plan.vpp();
        double layersPerStage = PipelineLayout.middleLayers(model, plan);
        double edgeLayers = PipelineLayout.edgeLayers(model, plan);
        double averageLayers = (double) model.layers() / p;
        Cost body = layer.times(layersPerStage);
        double dram1 = meteredDramBytes();
        double up1 = collectives.meteredScaleUpBytes();
        double out1 = collectives.meteredScaleOutBytes();
        Cost embedding = headTime.embedding(shape);
        Cost head = headTime.head(shape, model.vocab());
        double edgeDram = meteredDramBytes() - dram1;
        double edgeUp = collectives.meteredScaleUpBytes() - up1;
        double edgeOut = collectives.meteredScaleOutBytes() - out1;
        // Point-to-point activations between stages, forward and backward, v times per micro-batch; Megatron's
        // scatter-gather splits each transfer over the TP ranks (Narayanan et al. 2021 sec. 4.1).
        double p2pBytes = shape.activationBytes() / plan.tp();
        int ppStride = plan.tp() * plan.cp() * plan.dp();
        double p2p = p > 1 ? collectives.repeat(2 * v, collectives.sendRecv(p2pBytes, ppCrosses, ppStride)) : 0;
        Cost p2pCost = new Cost(0, 0, 0, 0, 0, p2p, false);
        // Pipeline sends of one micro-batch: every stage but one sends forward and backward.
        double p2pUp = collectives.meteredScaleUpBytes() - up1 - edgeUp;
        double p2pOut = collectives.meteredScaleOutBytes() - out1 - edgeOut;
        // CUDA graphs (the profile's, or the fused FP8 MoE path's full-iteration capture) launch nothing per kernel.
        double host = sw.cudaGraphs() || shape.moeFastPath() ? 0 : sw.hostSecondsPerKernel();
        Cost first;
        Cost last;
        Cost slowest;
        double averageStage;
        if (p == 1) {
            first = body.plus(embedding).plus(head);
            last = first;
            slowest = first;
            averageStage = stageSeconds(first, host);
        } else {
            Cost edgeBody = edgeLayers == layersPerStage ? body : layer.times(edgeLayers);
            first = edgeBody.plus(embedding).plus(p2pCost);
            last = edgeBody.plus(head).plus(p2pCost);
            Cost middle = body.plus(p2pCost);
            slowest = stageSeconds(first, host) >= stageSeconds(last, host) ? first : last;
            if (p > 2 && stageSeconds(middle, host) > stageSeconds(slowest, host)) {
                slowest = middle;
            }
            double charged = (p - 2) * layersPerStage + 2 * edgeLayers;
            averageStage = ((p - 2) * stageSeconds(middle, host) + stageSeconds(first, host)
                    + stageSeconds(last, host)) / p * (model.layers() / charged);
        }

        // 3. The 1F1B schedule over m micro-batches; host launch time the GPU cannot hide is overhead.
        int m = plan.microBatchesPerStep();
        Cost steady = slowest.times(m);
        double overhead = m * (stageSeconds(slowest, host) - slowest.totalSeconds());
        double bubble = PipelineSchedule.bubbleSeconds(p, v, averageStage);

        // 4. Data parallelism on the most loaded stage: ZeRO-3/FSDP gathers and reduce-scatters every micro-batch;
        // below ZeRO-3 the gradients are synchronised once per step. Then the optimizer.
        double dram2 = meteredDramBytes();
        double up2 = collectives.meteredScaleUpBytes();
        double out2 = collectives.meteredScaleOutBytes();
        double stageParams = params.total();
        double forwardSeconds = layerForward.totalSeconds() * layersPerStage;
        double backwardSeconds = layerBackward.totalSeconds() * layersPerStage;
        double dpComm = m * fsdp.exposedPerMicroBatch(params, plan, dp, layersPerStage,
                layerForward.totalSeconds(), layerBackward.totalSeconds(), recompute.fullFraction())
                + dataParallel.exposedPerStep(params, plan, dp, edp, layersPerStage, forwardSeconds, backwardSeconds);
        double embeddingParams = params.embeddingUnit();
        if (p > 1 && model.tiedEmbeddings()) {
            // Tied input and output embeddings: first and last stage all-reduce the shared gradient.
            dpComm += collectives.allReduce(embeddingParams * sw.reduceBytes(), new Group(2, 1, (p - 1) * ppStride));
        }
        double optimizerParams = params.dense() / (plan.zero() >= 1 ? params.denseShards() : 1)
                + params.expert() / (plan.zero() >= 1 ? params.expertShards() : 1);
        double optimizer = memory.seconds(optimizerParams * OPTIMIZER_BYTES_PER_PARAM, optimizerParams * 12, 2);

        double onceDram = meteredDramBytes() - dram2;
        double onceUp = collectives.meteredScaleUpBytes() - up2;
        double onceOut = collectives.meteredScaleOutBytes() - out2;
        double step = steady.totalSeconds() + overhead + bubble + dpComm + optimizer;

        // 5. Rates, utilisation, bottleneck, energy.
        double tokens = (double) plan.globalBatch() * seqLen;
        double modelFlops = ModelFlops.perStep(model, seqLen, plan.globalBatch());
        double hardwareFlops = modelFlops * recompute.hardwareOverModel();
        double peakAll = system.chip().peakFlopsPerSecond(plan.precision()) * system.gpuCount();
        Cost criticalPath = steady;
        double computeSeconds = criticalPath.gemmSeconds();
        double memorySeconds = criticalPath.memorySeconds() + optimizer;
        Infeasibility infeasibility = total > capacity ? Infeasibility.MEMORY_CAPACITY : Infeasibility.NONE;
        String detail = infeasibility == Infeasibility.NONE ? "" : null; // built on demand: TrainingResult.detail()
        Bottleneck bottleneck = infeasibility == Infeasibility.MEMORY_CAPACITY ? Bottleneck.MEMORY_CAPACITY
                : bottleneck(criticalPath, bubble, dpComm, optimizer, overhead, dp.crossesDomains(), ppCrosses);
        // Per device per step (the average device: layers over all stages, embedding and head on 1 of p stages),
        // then MODEL.md sec. 8: FLOPs x e_flop + bytes x e_byte + static power x time, capped at TDP x time.
        int gpus = system.gpuCount();
        double dramBytes = m * (averageLayers * layerDram + edgeDram / p) + onceDram;
        double p2pShare = (p - 1.0) / p;
        double scaleUpBytes = m * (averageLayers * layerUp + edgeUp / p + p2pShare * p2pUp) + onceUp;
        double scaleOutBytes = m * (averageLayers * layerOut + edgeOut / p + p2pShare * p2pOut) + onceOut;
        double dynamic = energy.dynamicJoules(hardwareFlops, plan.precision(), gpus * dramBytes,
                gpus * scaleUpBytes, gpus * scaleOutBytes);
        double joules = energy.joules(dynamic, step, gpus);
        return new TrainingResult(infeasibility, detail, step, tokens / step, modelFlops, hardwareFlops,
                modelFlops / (step * peakAll), hardwareFlops / (step * peakAll), computeSeconds, memorySeconds,
                criticalPath.tpSeconds(), criticalPath.cpSeconds(), criticalPath.epSeconds(),
                criticalPath.ppSeconds(), dpComm, bubble, optimizer, weightBytes, gradientBytes, optimizerBytes,
                activationBytes, reserve, capacity, bottleneck, joules, joules / step, overhead, dramBytes,
                scaleUpBytes + scaleOutBytes, scaleOutBytes, recompute.fullFraction());
    }

    /** One micro-batch on a stage: GPU time, or the host's launch time when that is longer. */
    private static double stageSeconds(Cost c, double hostSecondsPerKernel) {
        return HostOverhead.passSeconds(c, hostSecondsPerKernel);
    }

    private double meteredDramBytes() {
        return gemm.meteredDramBytes() + memory.meteredDramBytes();
    }

    /** The largest share of the step's critical path (communication by the network it crosses). */
    private Bottleneck bottleneck(Cost c, double bubble, double dpComm, double optimizer, double overhead,
                                  boolean dpScaleOut, boolean ppScaleOut) {
        return tally.compute(c.gemmSeconds()).add(Bottleneck.MEMORY_BANDWIDTH, c.memorySeconds() + optimizer)
                .add(Bottleneck.network(c.tpScaleOut()), c.tpSeconds() + c.cpSeconds() + c.epSeconds())
                .add(Bottleneck.network(ppScaleOut), c.ppSeconds()).add(Bottleneck.network(dpScaleOut), dpComm)
                .add(Bottleneck.PIPELINE_BUBBLE, bubble).add(Bottleneck.OVERHEAD, overhead).largest();
    }

    private void bind(SystemSpec system) {
        if (system == cachedSystem || system.equals(cachedSystem)) {
            return;
        }
        // GEMM and memory-bound times depend only on the chip: keep them (and the GEMM shape cache) when only the
        // network, domain or GPU count changes, as in a sweep over clusters of one chip. Rebuilding them per system
        // made every system change a cold start (46 KB and every shape recomputed).
        if (gemm == null || !gemm.chip().equals(system.chip())) {
            gemm = new GemmModel(system.chip());
            memory = new MemoryBoundOp(system.chip());
        }
        collectives = new CollectiveModel(system, catalog.curve(system.chip()), collectives);
        layerTime = new LayerTime(gemm, memory, collectives);
        headTime = new HeadTime(gemm, memory, collectives);
        fsdp = new FsdpCommunication(collectives);
        dataParallel = new DataParallelSync(collectives);
        energy = ChipEnergy.of(system, TechnologyCatalog.bundled(), gemm);
        cachedSystem = system;
    }
}
