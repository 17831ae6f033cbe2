package io.ridgeline.jobs.cli;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.sweep.PointLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline eval}: one point, a one-point sweep. The point file is a sweep file of one point (same keys,
 * types, defaults and messages; sweeps/reference.yaml) and each flag sets one of its keys, named after it; flags win.
 * A plan that cannot run at the point is refused with the shape rules' messages, where a sweep would write a row with
 * its status. {@code --phase gemm} times one GEMM instead ({@link GemmEval}).
 */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Evaluate one point and print its time, memory and bottleneck breakdown.",
                "The point is a one-point sweep: --file takes a sweep file's keys (sweeps/reference.yaml, docs/"
                        + "SWEEPS.md) and each flag sets the key it is named after (--gpu-count = cluster.gpu_count, "
                        + "--tp = parallelism.plans[0].tp, ...). Flags win over the file."})
public final class EvalCommand implements Callable<Integer> {
    @Option(names = "--file", paramLabel = "YAML", description = "A point: a sweep file with one point.")
    Path file;
    @Option(names = "--json", description = "Print the result row as JSON (points-table columns).")
    boolean json;
    @Option(names = "--phase", description = "phases[0].phase: training or inference (or gemm: one GEMM).")
    String phase;
    @Option(names = "--model", description = "models: a catalogue model (gpt3-175b, llama2-70b, ...).")
    String model;
    @Option(names = "--chip", description = "hardware.presets: a chip preset (a100-80g, h100-sxm, b200, ...).")
    String chip;
    @Option(names = "--gpu-count", description = "cluster.gpu_count: GPUs in the cluster.")
    String gpuCount;
    @Option(names = "--scale-out", description = "network.scale_out: hdr, ndr, xdr, eth400, eth800, eth1600.")
    String scaleOut;
    @Option(names = "--scale-out-gbit-s", description = "network.scale_out_gbit_s: per-GPU scale-out Gbit/s.")
    String scaleOutGbitS;
    @Option(names = "--scale-up-domain", description = "network.scale_up_domain: GPUs per NVLink domain.")
    String scaleUpDomain;
    @Option(names = "--topology", description = "network.topology: a scale-out fabric kind (fat-tree, ...).")
    String topology;
    @Option(names = "--software", description = "phases[0].software: a stack of catalog/stacks.yaml.")
    String software;
    @Option(names = "--seq-len", description = "phases[0].seq_len (training).")
    String seqLen;
    @Option(names = "--global-batch", description = "phases[0].global_batch (training).")
    String globalBatch;
    @Option(names = "--batch", description = "phases[0].batch (inference): the static batch.")
    String batch;
    @Option(names = "--input-tokens", description = "phases[0].input_tokens (inference).")
    String inputTokens;
    @Option(names = "--output-tokens", description = "phases[0].output_tokens (inference).")
    String outputTokens;
    @Option(names = "--concurrency", description = "phases[0].concurrency (inference).")
    String concurrency;
    @Option(names = "--weight-precision", description = "phases[0].weight_precision (inference).")
    String weightPrecision;
    @Option(names = "--activation-precision", description = "phases[0].activation_precision (inference).")
    String activationPrecision;
    @Option(names = "--kv-cache-precision", description = "phases[0].kv_cache_precision (inference).")
    String kvCachePrecision;
    @Option(names = "--cuda-graphs", arity = "0..1", fallbackValue = "true",
            description = "phases[0].cuda_graphs (inference).")
    String cudaGraphs;
    @Option(names = "--tp", description = "parallelism.plans[0].tp (a plan flag makes the plan explicit).")
    String tp;
    @Option(names = "--pp", description = "parallelism.plans[0].pp.")
    String pp;
    @Option(names = "--dp", description = "parallelism.plans[0].dp (default: the GPUs fill whole replicas).")
    String dp;
    @Option(names = "--cp", description = "parallelism.plans[0].cp (training).")
    String cp;
    @Option(names = "--ep", description = "parallelism.plans[0].ep (MoE models).")
    String ep;
    @Option(names = "--sp", arity = "0..1", fallbackValue = "true", description = "parallelism.plans[0].sp.")
    String sp;
    @Option(names = "--vpp", description = "parallelism.plans[0].vpp (training).")
    String vpp;
    @Option(names = "--zero", description = "parallelism.plans[0].zero (training).")
    String zero;
    @Option(names = "--micro-batch", description = "parallelism.plans[0].micro_batch (training).")
    String microBatch;
    @Option(names = "--recompute", description = "parallelism.plans[0].recompute: none, selective or full.")
    String recompute;
    @Option(names = "--precision", description = "parallelism.plans[0].precision (training); GEMM precision.")
    String precision;
    @Option(names = "-m", description = "GEMM: rows of A and C.")
    String gemmM;
    @Option(names = "-n", description = "GEMM: columns of B and C.")
    String gemmN;
    @Option(names = "-k", description = "GEMM: inner dimension.")
    String gemmK;

    @Override
    public Integer call() {
        if ("gemm".equals(phase)) {
            return GemmEval.run(chip, gemmM, gemmN, gemmK, precision, json);
        }
        PointLoader.Point point = PointLoader.read(file, values());
        Evaluator evaluator = new Evaluator(point.spec());
        List<InputError> problems = new ArrayList<>();
        for (InputError e : evaluator.problems(0)) {
            problems.add(point.locate(e));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        ResultRow row = evaluator.evaluate(0).get(0);
        if (row.status() == PointStatus.PLAN_SHAPE || row.status() == PointStatus.GPU_COUNT
                || row.status() == PointStatus.NO_VALID_PLAN) {
            // a rule the problem list does not cover (a format the chip lacks): the row says which
            throw new InvalidInputException(point.locate(InputError.of("plan", "plan", "a plan that runs on "
                    + row.chip().id(), row.detail())));
        }
        System.out.print(json ? EvalReport.json(row) : EvalReport.text(row));
        return row.status() == PointStatus.OK ? 0 : 3;
    }

    /** Every flag that was given, by the key it sets, in the point file's key order. */
    private Map<String, String> values() {
        Map<String, String> v = new LinkedHashMap<>();
        put(v, "models", model);
        put(v, "phases[0].phase", phase);
        put(v, "phases[0].seq_len", seqLen);
        put(v, "phases[0].global_batch", globalBatch);
        put(v, "phases[0].batch", batch);
        put(v, "phases[0].input_tokens", inputTokens);
        put(v, "phases[0].output_tokens", outputTokens);
        put(v, "phases[0].concurrency", concurrency);
        put(v, "phases[0].weight_precision", weightPrecision);
        put(v, "phases[0].activation_precision", activationPrecision);
        put(v, "phases[0].kv_cache_precision", kvCachePrecision);
        put(v, "phases[0].cuda_graphs", cudaGraphs);
        put(v, "phases[0].software", software);
        put(v, "hardware.presets", chip);
        put(v, "network.scale_out", scaleOut);
        put(v, "network.scale_out_gbit_s", scaleOutGbitS);
        put(v, "network.scale_up_domain", scaleUpDomain);
        put(v, "network.topology", topology);
        put(v, "cluster.gpu_count", gpuCount);
        String[][] plan = {{"tp", tp}, {"pp", pp}, {"dp", dp}, {"cp", cp}, {"ep", ep}, {"sp", sp}, {"vpp", vpp},
            {"zero", zero}, {"micro_batch", microBatch}, {"recompute", recompute}, {"precision", precision}};
        for (String[] kv : plan) {
            put(v, "parallelism.plans[0]." + kv[0], kv[1]);
        }
        return v;
    }

    private static void put(Map<String, String> v, String key, String value) {
        if (value != null) {
            v.put(key, value);
        }
    }
}
