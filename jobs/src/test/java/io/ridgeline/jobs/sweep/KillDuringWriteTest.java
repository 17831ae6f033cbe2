package io.ridgeline.jobs.sweep;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kill -9} of a real sweep process while Spark is writing Parquet leaves no committed partial run, and the next
 * run, of another run id, clears the killed run's staging and lock (its owner's pid is gone) and commits. The sweep is
 * sized so its write lasts several seconds on two cores.
 */
class KillDuringWriteTest {
    @TempDir
    Path dir;

    static final String SWEEP = String.join("\n",
            "name: killme",
            "models: [llama2-7b, llama2-13b, gpt3-175b, llama3-8b]",
            "phases: [{phase: training, seq_len: [2048], global_batch: [512, 1024, 2048]}]",
            "hardware: {presets: [a100-80g, h100-sxm, h200, b200, mi300x]}",
            "cluster: {gpu_count: [64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096]}",
            "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}, {tp: 4, pp: 8}, {tp: 8, pp: 4}, {tp: 2, pp: 4}, "
                    + "{tp: 8, pp: 2}, {tp: 4, pp: 2}, {tp: 8, pp: 1}, {tp: 4, pp: 4}, {tp: 2, pp: 8}, {tp: 1, pp: 8}]}",
            "output: {points: all}",
            "");

    private Process launch(Path sweep, Path out, Path log, String runId) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        cmd.addAll(Arrays.asList(System.getProperty("ridgeline.spark.jvm.flags", "").trim().split("\\s+")));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.ridgeline.jobs.cli.RidgelineCli");
        cmd.addAll(List.of("sweep", sweep.toString(), "--out", out.toString(), "--run-id", runId, "--yes"));
        cmd.removeIf(String::isEmpty);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static boolean writing(Path out) throws Exception {
        Path staging = out.resolve(RunCommitter.STAGING);
        if (!Files.isDirectory(staging)) {
            return false;
        }
        try (Stream<Path> s = Files.walk(staging)) {
            return s.anyMatch(p -> p.toString().contains("points") && p.getFileName().toString().endsWith(".parquet"));
        }
    }

    @Test
    void killMinus9DuringTheWriteLeavesNoCommittedRunAndTheNextRunClearsItsStaging() throws Exception {
        Path sweep = dir.resolve("killme.yaml");
        Files.writeString(sweep, SWEEP);
        Path out = dir.resolve("out");
        Process p = launch(sweep, out, dir.resolve("first.log"), "k");
        // Generous: Spark alone took 60 s to start on this shared 2-core box at load 15; the kill needs the write.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (!writing(out) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(p.isAlive(), "the sweep finished before the test could kill it; log: "
                + Files.readString(dir.resolve("first.log")));
        assertTrue(writing(out), "Spark never started writing points");
        p.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no cleanup
        p.waitFor();
        assertEquals(137, p.exitValue(), "killed by SIGKILL");

        assertFalse(Files.exists(out.resolve("points/run_id=k")), "no points partition of the killed run");
        assertFalse(Files.exists(out.resolve("frontier/run_id=k")));
        assertFalse(Files.exists(out.resolve("runs/run_id=k")), "the killed run has no manifest row");

        assertTrue(Files.exists(out.resolve(RunCommitter.STAGING).resolve("run_id=k" + RunLock.SUFFIX)),
                "the killed run left its lock");

        Process next = launch(sweep, out, dir.resolve("second.log"), "k2");
        assertTrue(next.waitFor(300, TimeUnit.SECONDS), "the next run did not finish");
        assertEquals(0, next.exitValue(), Files.readString(dir.resolve("second.log")));
        assertTrue(Files.exists(out.resolve("runs/run_id=k2")));
        File[] left = out.resolve(RunCommitter.STAGING).toFile().listFiles();
        assertEquals(List.of(), left == null ? List.of() : Arrays.asList(left),
                "the killed run's staging and lock are gone, and the next run's own too");
        assertFalse(Files.exists(out.resolve("runs/run_id=k")), "the killed run stays uncommitted");
        assertTrue(Files.readString(dir.resolve("second.log")).contains("run k2 committed"));
    }
}
