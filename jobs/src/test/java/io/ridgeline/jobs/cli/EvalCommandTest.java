package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EvalCommandTest {

    private static EvalCommand parse(String... args) {
        EvalCommand c = new EvalCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    private static String run(String... args) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            parse(args).call();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsABreakdownThatAddsUp() throws Exception {
        String out = run("--model", "megatron-175b", "--gpu", "a100-80g", "--gpus", "64", "--tp", "8", "--pp", "8",
                "--global-batch", "64", "--recompute", "selective", "--flash-attention=false", "--overlap-grad=false");
        assertTrue(out.contains("megatron-175b on 64 x a100-80g"), out);
        assertTrue(out.contains("plan tp8-pp8-dp1-sp-mb1-gb64-selective-bf16"), out);
        assertTrue(out.matches("(?s).*step\\s+1[0-9]\\.[0-9]+\\s+100\\.0%.*"), out);
        assertTrue(out.contains("bottleneck"), out);
    }

    @Test
    void jsonCarriesTheStepTimeAndMemory() throws Exception {
        String out = run("--model", "llama2-7b", "--gpu", "h100-sxm", "--gpus", "8", "--tp", "2", "--json");
        assertTrue(out.contains("\"step_time_s\""), out);
        assertTrue(out.contains("\"memory_bytes\""), out);
        assertTrue(out.contains("\"status\" : \"ok\""), out);
    }

    @Test
    void rejectsAnUnknownGpuWithASuggestion() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run("--gpu", "h100-smx"));
        assertTrue(e.getMessage().startsWith("command line: gpu: expected one of ["), e.getMessage());
        assertTrue(e.getMessage().endsWith("(did you mean 'h100-sxm'?), found 'h100-smx'"), e.getMessage());
    }

    @Test
    void rejectsHeadsNotDivisibleByTp() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> run("--model", "megatron-175b", "--gpus", "40", "--tp", "5", "--pp", "8"));
        assertEquals("command line: plan: expected a plan that fits the model, found plan.tp: expected a divisor of "
                + "the model's heads (96), found 5", e.getMessage());
    }

    @Test
    void rejectsAPlanThatDoesNotCoverTheGpus() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> run("--gpus", "64", "--tp", "8", "--pp", "2", "--dp", "2"));
        assertEquals("command line: gpus: expected tp x pp x dp x cp = 32, found 64", e.getMessage());
    }

    @Test
    void rejectsNegativeSizesAllAtOnce() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> run("--gpus", "-8", "--seq-len", "0"));
        assertTrue(e.errors().size() >= 2, e.getMessage());
        assertTrue(e.getMessage().contains("gpus: expected a positive integer, found -8"), e.getMessage());
        assertTrue(e.getMessage().contains("seq_len: expected a positive integer, found 0"), e.getMessage());
    }

    @Test
    void readsAPointFileAndRejectsUnknownKeys(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("point.yaml");
        Files.writeString(good, "model: megatron-22b\ngpu: a100-80g\ngpus: 8\ntp: 8\nglobal_batch: 4\n"
                + "micro_batch: 4\nrecompute: full\nsp: false\nflash_attention: false\noverlap_grad: false\n");
        String out = run("--file", good.toString());
        assertTrue(out.contains("megatron-22b on 8 x a100-80g"), out);
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "modle: megatron-22b\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run("--file", bad.toString()));
        assertTrue(e.getMessage().contains("modle: expected one of"), e.getMessage());
        assertTrue(e.getMessage().contains("(did you mean 'model'?), found an unknown key"), e.getMessage());
    }

    @Test
    void evaluatesAnInferencePoint() throws Exception {
        String out = run("--phase", "inference", "--model", "llama2-7b", "--gpu", "a100-80g", "--gpus", "1",
                "--input-len", "200", "--output-len", "200");
        assertTrue(out.contains("llama2-7b inference on 1 x a100-80g"), out);
        assertTrue(out.matches("(?s).*end-to-end [12]\\.[0-9]+ s.*"), out);
    }

    @Test
    void evaluatesAGemm() throws Exception {
        String out = run("--phase", "gemm", "-m", "8192", "-n", "8192", "-k", "8192", "--precision", "fp16");
        assertTrue(out.contains("GEMM 8192 x 8192 x 8192 fp16 on a100-80g"), out);
    }

    @Test
    void rejectsAnUnknownPhase() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run("--phase", "infrence"));
        assertTrue(e.getMessage().contains("(did you mean 'inference'?), found 'infrence'"), e.getMessage());
    }
}
