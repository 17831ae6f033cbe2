package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code eval} is a one-point sweep: the same keys, defaults and messages as sweep files, flags named after the keys,
 * and a plan that cannot run at the point refused with the shape rules' messages (issue 12: each case pinned here).
 */
class EvalCommandTest {
    private static final String[] LLAMA_TRAINING = {"--model", "llama2-7b", "--chip", "h100-sxm", "--phase",
        "training", "--seq-len", "2048", "--global-batch", "64"};
    private static final String[] LLAMA_INFERENCE = {"--model", "llama2-7b", "--chip", "h100-sxm", "--phase",
        "inference", "--batch", "1", "--input-tokens", "128", "--output-tokens", "128"};

    private static String run(String... args) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            EvalCommand c = new EvalCommand();
            new CommandLine(c).parseArgs(args);
            c.call();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static String[] with(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static List<String> errors(String... args) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run(args));
        return e.errors().stream().map(InputError::message).toList();
    }

    @Test
    void printsABreakdownThatAddsUp() throws Exception {
        String out = run("--model", "megatron-175b", "--chip", "a100-80g", "--gpu-count", "64", "--phase", "training",
                "--seq-len", "2048", "--global-batch", "64", "--tp", "8", "--pp", "8", "--recompute", "selective",
                "--zero", "0", "--software", "megatron-lm@2021");
        assertTrue(out.contains("megatron-175b on 64 x a100-80g"), out);
        assertTrue(out.contains("software megatron-lm@2021"), out);
        assertTrue(out.contains("plan tp8-pp8-dp1-sp-mb1-gb64-selective-bf16"), out);
        assertTrue(out.matches("(?s).*step\\s+1[0-9]\\.[0-9]+\\s+100\\.0%.*"), out);
        assertTrue(out.contains("bottleneck"), out);
    }

    @Test
    void sensitivityPrintsTheRankedTableAndTheEnergySplit() throws Exception {
        String out = run("--model", "gpt3-175b", "--chip", "h100-sxm", "--gpu-count", "512", "--phase", "training",
                "--seq-len", "2048", "--global-batch", "1536", "--tp", "8", "--pp", "8", "--sensitivity");
        assertTrue(out.contains("energy per token"), out);
        assertTrue(out.contains("static"), out);
        assertTrue(out.matches("(?s).*invest first: flops, per W: [a-z_]+\\).*"), out);
        // ranked: the priced resource with the largest speed-up per kUSD first (GEMM-heavy training: FLOP/s)
        assertTrue(out.matches("(?s).*per kW\\s*\\npeak FLOP/s \\(plan's precision\\)\\s+[1-9].*"), out);
        String plain = run("--model", "gpt3-175b", "--chip", "h100-sxm", "--gpu-count", "512", "--phase", "training",
                "--seq-len", "2048", "--global-batch", "1536", "--tp", "8", "--pp", "8");
        assertTrue(plain.contains("energy per token") && !plain.contains("invest first"), plain);
    }

    @Test
    void jsonIsThePointsRow() throws Exception {
        String out = run(with(LLAMA_TRAINING, "--gpu-count", "8", "--tp", "2", "--json"));
        assertTrue(out.contains("\"status\" : \"ok\""), out);
        assertTrue(out.contains("\"step_time_s\""), out);
        assertTrue(out.contains("\"software\" : \"megatron-bridge@25.11\""), out);
    }

    @Test
    void noArgumentsIsNotADefaultPoint() {
        assertEquals(List.of("command line: models: expected a list of model names, found no 'models' key",
                "command line: phases: expected a list of phases, found no 'phases' key",
                "command line: hardware: expected a mapping with presets and/or derived, found no 'hardware' key",
                "command line: cluster: expected a mapping with gpu_count, found no 'cluster' key",
                "command line: parallelism: expected a mapping (mode: search or explicit), found no 'parallelism' key"),
                errors());
    }

    @Test
    void rejectsAnUnknownChipWithASuggestion() {
        String m = errors("--model", "llama2-7b", "--chip", "h100-smx", "--phase", "training", "--seq-len", "2048",
                "--global-batch", "64", "--gpu-count", "8", "--tp", "8").get(0);
        assertTrue(m.startsWith("command line: hardware.presets: expected one of [a100-40g, "), m);
        assertTrue(m.endsWith("(did you mean 'h100-sxm'?), found 'h100-smx'"), m);
    }

    @Test
    void rejectsAnUnknownPhase() {
        assertEquals(List.of("command line: phases[0].phase: expected one of [inference, training] (did you mean "
                + "'inference'?), found 'infrence'"), errors("--phase", "infrence", "--model", "llama2-7b", "--chip",
                "h100-sxm", "--gpu-count", "1", "--tp", "1"));
    }

    @Test
    void rejectsMorePipelineStagesThanLayers() {
        assertEquals(List.of("command line: parallelism.plans[0].pp: expected at most the model's layers (32) model "
                + "chunks (pp x vpp; stages may be uneven), or layers + 2 = 34 when the embedding and the loss count as pipeline layers, found 40"),
                errors(with(LLAMA_TRAINING, "--gpu-count", "40", "--pp", "40")));
    }

    @Test
    void acceptsUnevenPipelineStagesAsSweepsDo() throws Exception {
        // 32 layers over 5 stages: Megatron-LM runs 7 on the most loaded stage; one rule set for both phases.
        assertTrue(run(with(LLAMA_TRAINING, "--gpu-count", "5", "--pp", "5")).contains("plan tp1-pp5-dp1"));
        assertTrue(run(with(LLAMA_INFERENCE, "--gpu-count", "5", "--pp", "5")).contains("plan tp1-pp5"));
    }

    @Test
    void rejectsInterleavingWithoutAPipeline() {
        assertEquals(List.of("command line: parallelism.plans[0].vpp: expected 1 without pipeline parallelism (pp 1),"
                + " found 2"), errors(with(LLAMA_TRAINING, "--gpu-count", "8", "--tp", "8", "--vpp", "2")));
    }

    @Test
    void rejectsInterleavedChunksThatDoNotFitTheLayers() {
        assertEquals(List.of("command line: parallelism.plans[0].pp: expected at most the model's layers (32) model "
                + "chunks (pp x vpp; stages may be uneven), or layers + 2 = 34 when the embedding and the loss count as pipeline layers, found 16 x vpp 4"),
                errors(with(LLAMA_TRAINING, "--gpu-count", "16", "--pp", "16", "--vpp", "4")));
        assertEquals(List.of("command line: parallelism.plans[0].global_batch: expected micro-batches per step "
                + "(global_batch / (dp x micro_batch)) a multiple of pp 2 (interleaving), found 3 micro-batches"),
                errors("--model", "llama2-7b", "--chip", "h100-sxm", "--phase", "training", "--seq-len", "2048",
                        "--global-batch", "3", "--gpu-count", "2", "--pp", "2", "--vpp", "2"));
    }

    @Test
    void rejectsASequenceLongerThanTheModelsContext() {
        assertEquals(List.of("command line: phases[0].seq_len: expected at most 4096 (max_seq_len of llama2-7b), found "
                + "8192"), errors("--model", "llama2-7b", "--chip", "h100-sxm", "--phase", "training", "--seq-len",
                "8192", "--global-batch", "64", "--gpu-count", "8", "--tp", "8"));
        assertEquals(List.of("command line: phases[0].output_tokens: expected input_tokens + output_tokens at most "
                + "4096 (max_seq_len of llama2-7b), found 4000 + 200 = 4200"), errors("--model", "llama2-7b",
                "--chip", "h100-sxm", "--phase", "inference", "--batch", "1", "--input-tokens", "4000",
                "--output-tokens", "200", "--gpu-count", "1", "--tp", "1"));
    }

    @Test
    void refusesToRoundDpDown() {
        assertEquals(List.of("command line: parallelism.plans[0].dp: expected tp x ep x pp (4) dividing gpu_count 6 "
                + "(dp fills the cluster with whole replicas; or set dp), found 6 / 4 = 1.50 replicas"),
                errors(with(LLAMA_INFERENCE, "--gpu-count", "6", "--tp", "4")));
        assertEquals(List.of("command line: parallelism.plans[0].dp: expected tp x pp x cp (8) dividing gpu_count 12 "
                + "(dp fills the cluster with whole replicas; or set dp), found 12 / 8 = 1.50 replicas"),
                errors(with(LLAMA_TRAINING, "--gpu-count", "12", "--tp", "8")));
    }

    @Test
    void rejectsAPlanThatDoesNotCoverTheGpus() {
        assertEquals(List.of("command line: parallelism.plans[0].dp: expected tp x pp x dp x cp = gpu_count 8, found "
                + "8 x 1 x 2 x 1 = 16"), errors(with(LLAMA_TRAINING, "--gpu-count", "8", "--tp", "8", "--dp", "2")));
    }

    @Test
    void rejectsHeadsNotDivisibleByTp() {
        // every problem at once: 5 divides neither the heads, the KV heads nor the FFN width
        assertEquals(List.of("command line: parallelism.plans[0].tp: expected a divisor of the model's heads (96), "
                + "found 5", "command line: parallelism.plans[0].tp: expected a divisor or a multiple of the model's "
                + "kv_heads (96); KV heads are split when kv_heads >= tp and replicated when tp > kv_heads, found 5",
                "command line: parallelism.plans[0].tp: expected a divisor of the model's ffn (49152), found 5"), errors("--model", "megatron-175b", "--chip", "a100-80g", "--phase", "training",
                "--seq-len", "2048", "--global-batch", "64", "--gpu-count", "40", "--tp", "5", "--pp", "8"));
    }

    @Test
    void rejectsTrainingKeysInAnInferencePlan() {
        assertEquals(List.of("command line: parallelism.plans[0].vpp: expected no 'vpp' in a plan of an inference "
                + "phase (it takes tp, pp, ep, dp; precisions are phase settings), found 'vpp'"),
                errors(with(LLAMA_INFERENCE, "--gpu-count", "8", "--tp", "2", "--vpp", "2")));
    }

    @Test
    void aFileOfManyPointsIsNotAPoint(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("two.yaml");
        Files.writeString(f, String.join("\n", "models: [llama2-7b, llama2-13b]",
                "phases: [{phase: training, seq_len: 2048, global_batch: 64}]", "hardware: {presets: [h100-sxm]}",
                "cluster: {gpu_count: [8, 16]}", "parallelism: {tp: [8]}", ""));
        assertEquals(List.of(f + ":1:1: (grid): expected one point (eval evaluates one; a sweep runs grids), found 4 "
                + "points: 2 models x 2 cluster sizes"), errors("--file", f.toString()));
    }

    @Test
    void readsAPointFileWhoseKeysAreSweepKeysAndFlagsWin(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("point.yaml");
        Files.writeString(good, String.join("\n", "models: [megatron-22b]",
                "phases: [{phase: training, seq_len: 2048, global_batch: 4, software: megatron-lm@2021}]",
                "hardware: {presets: [a100-80g]}", "cluster: {gpu_count: 8}",
                "parallelism: {mode: explicit, plans: [{tp: 8, micro_batch: 4, recompute: full, sp: false}]}", ""));
        assertTrue(run("--file", good.toString()).contains("megatron-22b on 8 x a100-80g"));
        assertTrue(run("--file", good.toString(), "--chip", "h100-sxm").contains("megatron-22b on 8 x h100-sxm"));
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "modle: megatron-22b\n");
        String m = errors("--file", bad.toString()).get(0);
        assertTrue(m.startsWith(bad + ":1:1: modle: expected a known key: one of ["), m);
        assertTrue(m.endsWith("(did you mean 'models'?), found an unknown key"), m);
    }

    @Test
    void aFilesPlanProblemPointsAtItsLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.yaml");
        Files.writeString(f, String.join("\n", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: 2048, global_batch: 64}]", "hardware: {presets: [h100-sxm]}",
                "cluster: {gpu_count: 8}", "parallelism:", "  mode: explicit", "  plans:", "    - tp: 3", ""));
        assertEquals(f + ":8:11: parallelism.plans[0].tp: expected a divisor of the model's heads (32), found 3",
                errors("--file", f.toString()).get(0));
    }

    @Test
    void evaluatesAnInferencePoint() throws Exception {
        String out = run("--phase", "inference", "--model", "llama2-7b", "--chip", "a100-80g", "--gpu-count", "1",
                "--input-tokens", "200", "--output-tokens", "200", "--batch", "1", "--tp", "1");
        assertTrue(out.contains("llama2-7b inference on 1 x a100-80g"), out);
        assertTrue(out.matches("(?s).*end-to-end [12]\\.[0-9]+ s.*"), out);
    }

    @Test
    void evaluatesAGemm() throws Exception {
        String out = run("--phase", "gemm", "-m", "8192", "-n", "8192", "-k", "8192", "--precision", "fp16",
                "--chip", "a100-80g");
        assertTrue(out.contains("GEMM 8192 x 8192 x 8192 fp16 on a100-80g"), out);
    }

    @Test
    void servingFlagsSetTheModeLoadAndSplitKeys() throws Exception {
        String[] base = {"--model", "llama3.1-70b", "--chip", "b200", "--gpu-count", "8", "--phase", "inference",
            "--input-tokens", "1024", "--output-tokens", "256", "--weight-precision", "fp8", "--activation-precision",
            "fp8", "--kv-cache-precision", "fp8"};
        String split = run(concat(base, "--tp", "2", "--mode", "saturated", "--concurrency", "64",
                "--disaggregation", "1:3"));
        assertTrue(split.contains("saturated concurrency 64, disaggregated 1:3 (prefill:decode replicas)"), split);
        assertTrue(split.contains("prefill 2 GPUs : decode 6 GPUs"), split);
        String online = run(concat(base, "--tp", "8", "--mode", "online", "--requests-per-s", "5"));
        assertTrue(online.contains("online requests/s 5.0"), online);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run(concat(base, "--tp", "8",
                "--mode", "saturated", "--disaggregation", "1:1")));
        assertTrue(e.getMessage().contains("parallelism.plans[0].dp: expected a multiple of the 2 replicas of one "
                + "disaggregation unit (1:1 prefill:decode), found 1"), e.getMessage());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
