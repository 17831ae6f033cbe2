package io.ridgeline.jobs.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Real results for the report, browser, SQL-engine and workbook tests, written once per test JVM by the {@code sweep}
 * command on local Spark (the same path a user takes):
 * <ol>
 *   <li>{@link #EARLIER}: the quickstart without B200 and with non-default costs ($0.30/kWh, PUE 1.4);</li>
 *   <li>{@link #LATEST}: the real sweeps/quickstart.yaml, same sweep name, so its report diffs against EARLIER;</li>
 *   <li>{@link #SERVING}: a small inference sweep (two Llama-2 sizes on H100 and B200, batch 1-64, TP 1-8).</li>
 * </ol>
 * About 2 minutes on a busy 2-core machine; the directory is deleted when the JVM exits.
 */
final class SweptResults {
    static final String EARLIER = "quickstart-earlier";
    static final String LATEST = "quickstart-latest";
    static final String SERVING = "serving-small";

    static final String SERVING_SWEEP = String.join("\n",
            "name: serving-small",
            "models: [llama2-7b, llama2-70b]",
            "phases:",
            "  - phase: inference",
            "    batch: [1, 8, 64]",
            "    input_tokens: [1024]",
            "    output_tokens: [256]",
            "    kv_cache_precision: [bf16, fp8]",
            "hardware: {presets: [h100-sxm, b200]}",
            "cluster: {gpu_count: [8]}",
            "parallelism: {mode: search, keep: frontier, tp: [1, 2, 4, 8], pp: [1]}",
            "objectives: [{min: tpot_s}, {min: usd_per_million_tokens}]",
            "frontier: {group_by: [model]}",
            "output: {points: all}",
            "");

    private static Path dir;

    private SweptResults() {
    }

    /** The results directory with the three runs (EARLIER committed before LATEST). */
    static synchronized Path get() {
        if (dir == null) {
            dir = create();
        }
        return dir;
    }

    static Path quickstartFile() {
        return Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("sweeps/quickstart.yaml");
    }

    private static Path create() {
        try {
            Path root = Files.createTempDirectory("ridgeline-swept");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root)));
            Path out = root.resolve("results");
            String quickstart = Files.readString(quickstartFile());
            String earlier = quickstart.replace("presets: [a100-80g, h100-sxm, h200, b200]",
                    "presets: [a100-80g, h100-sxm, h200]").replace("  tokens: 3.0e11",
                    "  tokens: 3.0e11\n  usd_per_kwh: 0.30\n  pue: 1.4");
            if (earlier.equals(quickstart) || !earlier.contains("usd_per_kwh: 0.30")) {
                throw new IllegalStateException("sweeps/quickstart.yaml changed: update the EARLIER variant");
            }
            Path earlierFile = root.resolve("quickstart-earlier.yaml");
            Files.writeString(earlierFile, earlier);
            Path serving = root.resolve("serving-small.yaml");
            Files.writeString(serving, SERVING_SWEEP);
            sweep(earlierFile, out, EARLIER);
            sweep(quickstartFile(), out, LATEST);
            sweep(serving, out, SERVING);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sweep(Path file, Path out, String runId) {
        CliRun r = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--run-id", runId, "--yes");
        if (r.code() != 0) {
            throw new IllegalStateException("sweep " + file + " failed (" + r.code() + "): " + r.err() + r.out());
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit
        }
    }
}
