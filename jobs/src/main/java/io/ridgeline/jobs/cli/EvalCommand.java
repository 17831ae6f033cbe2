package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ridgeline.engine.calibration.IntervalOutput;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.hardware.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.training.Infeasibility;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline eval}: one training point, from a YAML file and/or flags (flags win), printed as a breakdown table
 * or as JSON.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Evaluate one training point and print its time, memory and bottleneck breakdown.",
                "Keys of --file are the flag names in snake_case (global_batch, micro_batch, gpus_per_node...)."})
public final class EvalCommand implements Callable<Integer> {
    static final Set<String> KEYS = Set.of("model", "gpu", "gpus", "gpus_per_node", "scale_out", "scale_out_gbps",
            "seq_len", "tp", "pp", "dp", "cp", "ep", "sp", "vpp", "zero", "micro_batch", "global_batch",
            "recompute", "precision", "flash_attention", "overlap_grad", "phase", "batch", "input_len",
            "output_len", "cuda_graphs", "kv_precision", "m", "n", "k");

    @Option(names = "--file", paramLabel = "YAML", description = "A point file; flags override its keys.")
    Path file;
    @Option(names = "--model", description = "Model name from the catalogue (e.g. gpt3-175b, llama2-70b).")
    String model;
    @Option(names = "--gpu", description = "Accelerator preset (e.g. a100-80g, h100-sxm, b200).")
    String gpu;
    @Option(names = "--gpus", description = "GPUs in the cluster.")
    Integer gpus;
    @Option(names = "--gpus-per-node", description = "Scale-up domain size (default: the chip's server).")
    Integer gpusPerNode;
    @Option(names = "--scale-out", description = "Scale-out network: hdr, ndr, xdr, eth400, eth800, eth1600.")
    String scaleOut;
    @Option(names = "--scale-out-gbps", description = "Scale-out bandwidth per GPU in Gbit/s (overrides the network's).")
    Double scaleOutGbps;
    @Option(names = "--seq-len", description = "Sequence length in tokens (default: 2048).")
    Integer seqLen;
    @Option(names = "--tp") Integer tp;
    @Option(names = "--pp") Integer pp;
    @Option(names = "--dp", description = "Data-parallel size (default: gpus / (tp x pp x cp)).")
    Integer dp;
    @Option(names = "--cp") Integer cp;
    @Option(names = "--ep", description = "Expert parallel. Inference: ep attention groups of tp GPUs, experts spread "
            + "over them (replica = tp x ep x pp GPUs).") Integer ep;
    /** Set by the inference phase: the GPU count check uses the inference replica (tp x ep x pp) instead. */
    private boolean inferenceLayout;
    @Option(names = "--sp", arity = "0..1", description = "Sequence parallelism (default: on when tp > 1).")
    Boolean sp;
    @Option(names = "--vpp") Integer vpp;
    @Option(names = "--zero") Integer zero;
    @Option(names = "--micro-batch") Integer microBatch;
    @Option(names = "--global-batch") Integer globalBatch;
    @Option(names = "--recompute", description = "none, selective or full (default: selective).")
    String recompute;
    @Option(names = "--precision", description = "bf16, fp16, fp8 or fp4 (default: bf16).")
    String precision;
    @Option(names = "--flash-attention", arity = "0..1", description = "Fused attention (default: true).")
    Boolean flash;
    @Option(names = "--overlap-grad", arity = "0..1", description = "Overlap DP gradient reduction (default: true).")
    Boolean overlapGrad;
    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;
    @Option(names = "--phase", description = "training (default), inference or gemm.")
    String phase;
    @Option(names = "--batch", description = "Inference: sequences per batch (default 1).")
    Integer batch;
    @Option(names = "--input-len", description = "Inference: prompt tokens (default 128).")
    Integer inputLen;
    @Option(names = "--output-len", description = "Inference: generated tokens (default 128).")
    Integer outputLen;
    @Option(names = "--cuda-graphs", arity = "0..1", description = "Inference: replay decode with CUDA graphs.")
    Boolean cudaGraphs;
    @Option(names = "--kv-precision", description = "Inference: KV-cache precision (default: --precision).")
    String kvPrecision;
    @Option(names = {"-m"}, description = "GEMM: rows of A and C.")
    Integer gemmM;
    @Option(names = {"-n"}, description = "GEMM: columns of B and C.")
    Integer gemmN;
    @Option(names = {"-k"}, description = "GEMM: inner dimension.")
    Integer gemmK;
    @Mixin
    CalibrationOption calibration = new CalibrationOption();

    @Override
    public Integer call() {
        Map<String, JsonNode> values = fileValues();
        String ph = text(phase, values, "phase", "training");
        switch (ph) {
            case "training":
                break;
            case "inference":
                return inference(values);
            case "gemm":
                return gemm(values);
            default:
                throw new InvalidInputException(InputError.of(source(), "phase",
                        Names.expectedOneOf(ph, List.of("training", "inference", "gemm")), "'" + ph + "'"));
        }
        Point p = resolve(values);
        TrainingResult r = new TrainingStep(calibration.catalogs().hardware()).evaluate(p.model, p.seqLen, p.system,
                p.plan);
        if (r.infeasibility() == Infeasibility.PLAN_SHAPE) {
            throw new InvalidInputException(InputError.of(source(), "plan", "a plan that fits the model",
                    r.detail()));
        }
        PrintStream out = System.out;
        if (json) {
            out.println(toJson(p, r, calibration));
        } else {
            out.print(table(p, r, calibration));
        }
        return r.feasible() ? 0 : 3;
    }

    /** One inference point: TTFT, TPOT, end-to-end latency, throughput, memory. */
    private int inference(Map<String, JsonNode> f) {
        List<InputError> errors = new ArrayList<>();
        inferenceLayout = true;
        if (dp == null && !f.containsKey("dp")) {
            // Unlike training, DP replicas default to 1: the request runs on one replica.
            dp = 1;
        }
        int b = positive(batch, f, "batch", 1, errors);
        int in = positive(inputLen, f, "input_len", 128, errors);
        int out = positive(outputLen, f, "output_len", 128, errors);
        boolean graphs = bool(cudaGraphs, f, "cuda_graphs", false, errors);
        String kvText = text(kvPrecision, f, "kv_precision", text(precision, f, "precision", "bf16"));
        Precision kv = Precision.parse(kvText);
        if (kv == null) {
            errors.add(InputError.of(source(), "kv_precision", "one of bf16, fp16, fp8, fp4", "'" + kvText + "'"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        Point p = resolve(f);
        io.ridgeline.engine.inference.InferencePlan plan = io.ridgeline.engine.inference.InferencePlan
                .tensorParallel(p.plan.tp()).withParallelism(p.plan.tp(), p.plan.pp(), p.plan.ep(), p.plan.dp())
                .withPrecisions(p.plan.precision(), p.plan.precision(), kv).withCudaGraphs(graphs);
        io.ridgeline.engine.inference.InferenceStep.validate(p.model, p.system, plan);
        io.ridgeline.engine.inference.InferenceResult r = new io.ridgeline.engine.inference.InferenceStep(
                calibration.catalogs().hardware())
                .evaluate(p.model, p.system, plan, io.ridgeline.engine.inference.InferenceWorkload.staticBatch(b, in,
                        out));
        double gib = 1024.0 * 1024 * 1024;
        if (json) {
            ObjectNode root = new ObjectMapper().createObjectNode();
            root.put("model", p.model.name());
            root.put("gpu", p.system.chip().id());
            root.put("status", r.feasible() ? "ok" : r.infeasibility().id());
            root.put("detail", r.detail());
            root.put("ttft_s", r.ttftSeconds());
            root.put("tpot_s", r.tpotSeconds());
            root.put("e2e_latency_s", r.e2eLatencySeconds());
            root.put("output_tokens_per_s_per_gpu", r.outputTokensPerSecondPerGpu());
            root.put("max_batch", r.maxBatch());
            root.put("weight_bytes", r.weightBytes());
            root.put("kv_cache_bytes", r.kvCacheBytes());
            root.put("bottleneck", r.bottleneck().id());
            root.put("energy_j", r.energyJoules());
            calibration.putInferenceIntervals(root, p.system.chip().family().name(), r);
            System.out.println(root.toPrettyString());
        } else {
            System.out.printf("%s inference on %d x %s, tp %d ep %d pp %d, batch %d, %d in / %d out%n",
                    p.model.name(), p.system.gpuCount(), p.system.chip().id(), p.plan.tp(), p.plan.ep(), p.plan.pp(), b,
                    in, out);
            if (!r.feasible()) {
                System.out.println("INFEASIBLE (" + r.infeasibility().id() + "): " + r.detail());
            }
            String fam = p.system.chip().family().name();
            System.out.printf("TTFT %.2f ms%s   TPOT %.3f ms%s   end-to-end %.4f s%s%n", r.ttftSeconds() * 1e3,
                    calibration.besideTime(IntervalOutput.TTFT, "", fam, r.ttftSeconds(), 1e3, "%.2f"),
                    r.tpotSeconds() * 1e3, calibration.besideTime(IntervalOutput.TPOT, "", fam, r.tpotSeconds(), 1e3,
                            "%.3f"), r.e2eLatencySeconds(), calibration.besideTime(IntervalOutput.E2E_LATENCY, "", fam,
                            r.e2eLatencySeconds(), 1, "%.4f"));
            System.out.printf("output tokens/s per GPU %.4g%s   max batch (KV cache) %d   bottleneck %s%n",
                    r.outputTokensPerSecondPerGpu(), calibration.besideRate(IntervalOutput.OUTPUT_THROUGHPUT, "", fam,
                            r.outputTokensPerSecondPerGpu(), "%.4g"), r.maxBatch(), r.bottleneck().id());
            System.out.printf("memory per GPU: weights %.2f GiB, KV cache %.2f GiB, activations %.2f GiB, reserve %.2f "
                            + "GiB of %.2f GiB%n", r.weightBytes() / gib, r.kvCacheBytes() / gib,
                    r.activationBytes() / gib, r.reserveBytes() / gib, r.memoryCapacityBytes() / gib);
            System.out.printf("energy %.4g J (%.3g J per output token)%n", r.energyJoules(),
                    r.joulesPerOutputToken());
        }
        return r.feasible() ? 0 : 3;
    }

    /** One GEMM: time and achieved FLOP/s on the chip. */
    private int gemm(Map<String, JsonNode> f) {
        List<InputError> errors = new ArrayList<>();
        int m = positive(gemmM, f, "m", 4096, errors);
        int n = positive(gemmN, f, "n", 4096, errors);
        int k = positive(gemmK, f, "k", 4096, errors);
        Chip chip = chip(f, errors);
        Precision pr = precision(f, errors);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        String gpuId = chip.id();
        io.ridgeline.engine.ops.GemmModel g = new io.ridgeline.engine.ops.GemmModel(chip);
        double seconds = g.seconds(m, n, k, pr);
        double flops = 2.0 * m * n * k / seconds;
        if (json) {
            ObjectNode root = new ObjectMapper().createObjectNode();
            root.put("gpu", gpuId);
            root.put("m", m);
            root.put("n", n);
            root.put("k", k);
            root.put("seconds", seconds);
            root.put("tflops", flops / 1e12);
            System.out.println(root.toPrettyString());
        } else {
            System.out.printf("GEMM %d x %d x %d %s on %s: %.4g s, %.1f TFLOP/s (%.1f%% of dense peak)%n", m, n, k,
                    pr.id(), gpuId, seconds, flops / 1e12, flops / chip.peakFlopsPerSecond(pr) * 100);
        }
        return 0;
    }

    private String source() {
        return file == null ? "command line" : file + " + command line";
    }

    private Map<String, JsonNode> fileValues() {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        if (file == null) {
            return values;
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable YAML file",
                    e.getClass().getSimpleName() + ": " + e.getMessage().lines().findFirst().orElse("")));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidInputException(InputError.of(file.toString(), "(root)", "a mapping of keys",
                    root == null ? "an empty file" : root.getNodeType().toString().toLowerCase()));
        }
        List<InputError> errors = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!KEYS.contains(e.getKey())) {
                errors.add(InputError.of(file.toString(), e.getKey(), Names.expectedOneOf(e.getKey(), KEYS),
                        "an unknown key"));
            } else {
                values.put(e.getKey(), e.getValue());
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return values;
    }

    private record Point(ModelSpec model, int seqLen, SystemSpec system, TrainingPlan plan) {
    }

    private Point resolve(Map<String, JsonNode> f) {
        List<InputError> errors = new ArrayList<>();
        HardwareCatalog hw = calibration.catalogs().hardware();
        String modelName = text(model, f, "model", "gpt3-175b");
        ModelSpec m = null;
        if (!ModelCatalog.bundled().has(modelName)) {
            errors.add(InputError.of(source(), "model", Names.expectedOneOf(modelName,
                    ModelCatalog.bundled().models().keySet()), "'" + modelName + "'"));
        } else {
            m = ModelCatalog.bundled().model(modelName);
        }
        Chip chip = chip(f, errors);
        int nGpus = positive(gpus, f, "gpus", 8, errors);
        int seq = positive(seqLen, f, "seq_len", 2048, errors);
        int t = positive(tp, f, "tp", 1, errors);
        int p = positive(pp, f, "pp", 1, errors);
        int c = positive(cp, f, "cp", 1, errors);
        int e = positive(ep, f, "ep", 1, errors);
        int v = positive(vpp, f, "vpp", 1, errors);
        int z = integer(zero, f, "zero", 0, errors);
        if (z < 0 || z > 3) {
            errors.add(InputError.of(source(), "zero", "an integer in [0, 3]", Integer.toString(z)));
        }
        int d = dp != null || f.containsKey("dp") ? positive(dp, f, "dp", 1, errors)
                : Math.max(1, nGpus / (t * p * c));
        if (inferenceLayout) {
            // Inference: a replica is tp x ep x pp GPUs (ep attention groups; experts spread over them).
            if ((long) t * e * p * d * c > nGpus) {
                errors.add(InputError.of(source(), "gpus", "at least tp x ep x pp x dp = " + (long) t * e * p * d * c,
                        Integer.toString(nGpus)));
            }
        } else if ((long) t * p * d * c != nGpus) {
            errors.add(InputError.of(source(), "gpus", "tp x pp x dp x cp = " + (long) t * p * d * c,
                    Integer.toString(nGpus)));
        }
        int mb = positive(microBatch, f, "micro_batch", 1, errors);
        int gb = positive(globalBatch, f, "global_batch", d * mb * Math.max(1, p) * 4, errors);
        boolean spOn = bool(sp, f, "sp", t > 1, errors);
        Recompute rc = Recompute.parse(text(recompute, f, "recompute", "selective"));
        if (rc == null) {
            errors.add(InputError.of(source(), "recompute", "none, selective or full",
                    "'" + text(recompute, f, "recompute", "") + "'"));
        }
        Precision pr = precision(f, errors);
        boolean fl = bool(flash, f, "flash_attention", true, errors);
        boolean og = bool(overlapGrad, f, "overlap_grad", true, errors);
        ScaleOutNetwork net = null;
        if (chip != null) {
            String netId = text(scaleOut, f, "scale_out", hw.defaultNetwork(chip).id());
            if (!hw.networks().containsKey(netId)) {
                errors.add(InputError.of(source(), "scale_out", Names.expectedOneOf(netId, hw.networks().keySet()),
                        "'" + netId + "'"));
            } else {
                net = hw.network(netId);
                if (scaleOutGbps != null || f.containsKey("scale_out_gbps")) {
                    double g = scaleOutGbps != null ? scaleOutGbps : f.get("scale_out_gbps").asDouble(-1);
                    if (!(g > 0)) {
                        errors.add(InputError.of(source(), "scale_out_gbps", "a positive number", Double.toString(g)));
                    } else {
                        net = net.withGbitPerSecond(g);
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        SystemSpec system = SystemSpec.of(chip, nGpus, net);
        if (gpusPerNode != null || f.containsKey("gpus_per_node")) {
            system = system.withScaleUpDomain(positive(gpusPerNode, f, "gpus_per_node", 8, errors));
        }
        TrainingPlan plan = new TrainingPlan(t, p, d, c, e, spOn, v, z, mb, gb, rc, pr, og, fl);
        return new Point(m, seq, system, plan);
    }

    /** The --gpu preset, or null with an error naming the known ones. */
    private Chip chip(Map<String, JsonNode> f, List<InputError> errors) {
        HardwareCatalog hw = calibration.catalogs().hardware();
        String id = text(gpu, f, "gpu", "a100-80g");
        if (!hw.hasChip(id)) {
            errors.add(InputError.of(source(), "gpu", Names.expectedOneOf(id, hw.chips().keySet()), "'" + id + "'"));
            return null;
        }
        return hw.chip(id);
    }

    /** The --precision, or null with an error. */
    private Precision precision(Map<String, JsonNode> f, List<InputError> errors) {
        String v = text(precision, f, "precision", "bf16");
        Precision p = Precision.parse(v);
        if (p == null) {
            errors.add(InputError.of(source(), "precision", "one of fp32, tf32, bf16, fp16, fp8, fp4", "'" + v + "'"));
        }
        return p;
    }

    private static String text(String flag, Map<String, JsonNode> f, String key, String fallback) {
        if (flag != null) {
            return flag;
        }
        return f.containsKey(key) ? f.get(key).asText() : fallback;
    }

    private int integer(Integer flag, Map<String, JsonNode> f, String key, int fallback, List<InputError> errors) {
        if (flag != null) {
            return flag;
        }
        JsonNode n = f.get(key);
        if (n == null) {
            return fallback;
        }
        if (!n.canConvertToInt() || !n.isIntegralNumber()) {
            errors.add(InputError.of(source(), key, "an integer", n.toString()));
            return fallback;
        }
        return n.asInt();
    }

    private int positive(Integer flag, Map<String, JsonNode> f, String key, int fallback, List<InputError> errors) {
        int v = integer(flag, f, key, fallback, errors);
        if (v < 1) {
            errors.add(InputError.of(source(), key, "a positive integer", Integer.toString(v)));
            return fallback;
        }
        return v;
    }

    private boolean bool(Boolean flag, Map<String, JsonNode> f, String key, boolean fallback,
                         List<InputError> errors) {
        if (flag != null) {
            return flag;
        }
        JsonNode n = f.get(key);
        if (n == null) {
            return fallback;
        }
        if (!n.isBoolean()) {
            errors.add(InputError.of(source(), key, "true or false", n.toString()));
            return fallback;
        }
        return n.asBoolean();
    }

    private static String table(Point p, TrainingResult r, CalibrationOption calibration) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%s on %d x %s (%d per domain, scale-out %s %.0f Gb/s per GPU), seq %d%n",
                p.model.name(), p.system.gpuCount(), p.system.chip().id(), p.system.scaleUpDomain(),
                p.system.scaleOut().id(), p.system.scaleOut().bytesPerSecond() * 8 / 1e9, p.seqLen));
        sb.append("plan ").append(p.plan).append('\n');
        if (!r.feasible()) {
            sb.append("INFEASIBLE (").append(r.infeasibility().id()).append("): ").append(r.detail()).append('\n');
        }
        double step = r.stepTimeSeconds();
        sb.append(String.format("%n%-28s %12s %8s%n", "time per step", "seconds", "share"));
        row(sb, "compute (GEMM, attention)", r.computeSeconds(), step);
        row(sb, "memory-bound kernels", r.memoryBoundSeconds() - r.optimizerSeconds(), step);
        row(sb, "tensor/sequence parallel", r.tpCommSeconds(), step);
        row(sb, "context parallel", r.cpCommSeconds(), step);
        row(sb, "expert parallel", r.epCommSeconds(), step);
        row(sb, "pipeline p2p", r.ppCommSeconds(), step);
        row(sb, "pipeline bubble", r.bubbleSeconds(), step);
        row(sb, "data parallel (exposed)", r.dpCommSeconds(), step);
        row(sb, "optimizer", r.optimizerSeconds(), step);
        row(sb, "host launch overhead", r.overheadSeconds(), step);
        row(sb, "step", step, step);
        String fam = p.system.chip().family().name();
        String stepInterval = calibration.besideTime(IntervalOutput.STEP_TIME, "", fam, step, 1, "%.5f");
        if (!stepInterval.isEmpty()) {
            sb.append(String.format("%-28s%s%n", "", stepInterval));
        }
        sb.append(String.format("%ntokens/s %.4g%s   MFU %.1f%%   HFU %.1f%%   bottleneck %s%n", r.tokensPerSecond(),
                calibration.besideRate(IntervalOutput.STEP_TIME, "", fam, r.tokensPerSecond(), "%.4g"),
                r.mfuFraction() * 100, r.hfuFraction() * 100, r.bottleneck().id()));
        sb.append(String.format("energy %.4g J per step, average power %.4g W%n", r.energyJoules(),
                r.averagePowerWatts()));
        double gib = 1024.0 * 1024 * 1024;
        sb.append(String.format("%n%-28s %12s%n", "memory per device", "GiB"));
        sb.append(String.format("%-28s %12.2f%n", "weights", r.weightBytes() / gib));
        sb.append(String.format("%-28s %12.2f%n", "gradients", r.gradientBytes() / gib));
        sb.append(String.format("%-28s %12.2f%n", "optimizer state", r.optimizerBytes() / gib));
        sb.append(String.format("%-28s %12.2f%n", "activations", r.activationBytes() / gib));
        sb.append(String.format("%-28s %12.2f%n", "reserve", r.reserveBytes() / gib));
        sb.append(String.format("%-28s %12.2f of %.2f%n", "total", r.totalMemoryBytes() / gib,
                r.memoryCapacityBytes() / gib));
        return sb.toString();
    }

    private static void row(StringBuilder sb, String label, double seconds, double step) {
        sb.append(String.format("%-28s %12.5f %7.1f%%%n", label, seconds, seconds / step * 100));
    }

    private static String toJson(Point p, TrainingResult r, CalibrationOption calibration) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("model", p.model.name());
        root.put("gpu", p.system.chip().id());
        root.put("gpus", p.system.gpuCount());
        root.put("seq_len", p.seqLen);
        root.put("plan", p.plan.toString());
        root.put("status", r.feasible() ? "ok" : r.infeasibility().id());
        root.put("detail", r.detail());
        root.put("step_time_s", r.stepTimeSeconds());
        root.put("tokens_per_s", r.tokensPerSecond());
        root.put("mfu_fraction", r.mfuFraction());
        root.put("hfu_fraction", r.hfuFraction());
        root.put("bottleneck", r.bottleneck().id());
        calibration.putTrainingIntervals(root, p.system.chip().family().name(), r);
        ObjectNode b = root.putObject("breakdown_s");
        b.put("compute", r.computeSeconds());
        b.put("memory_bound", r.memoryBoundSeconds());
        b.put("tp_comm", r.tpCommSeconds());
        b.put("cp_comm", r.cpCommSeconds());
        b.put("ep_comm", r.epCommSeconds());
        b.put("pp_comm", r.ppCommSeconds());
        b.put("bubble", r.bubbleSeconds());
        b.put("dp_comm", r.dpCommSeconds());
        b.put("optimizer", r.optimizerSeconds());
        b.put("host_overhead", r.overheadSeconds());
        ObjectNode mem = root.putObject("memory_bytes");
        mem.put("weights", r.weightBytes());
        mem.put("gradients", r.gradientBytes());
        mem.put("optimizer", r.optimizerBytes());
        mem.put("activations", r.activationBytes());
        mem.put("reserve", r.reserveBytes());
        mem.put("total", r.totalMemoryBytes());
        mem.put("capacity", r.memoryCapacityBytes());
        root.put("energy_j", r.energyJoules());
        root.put("average_power_w", r.averagePowerWatts());
        try {
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
