package io.ridgeline.jobs.studies;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Study 3 of docs/studies (seed paper, Kundu et al. 2024): inference latency against DRAM technology, HBM2e to HBM4
 * (and HBM4e beyond it), on technology-derived chips.
 *
 * <p>Evaluates every point of {@code sweeps/study-3-inference-dram.yaml} with the engine's {@link Evaluator} (the
 * designs, chip ids and plans are the sweep file's) and writes one CSV row per point, keeping the times of points that
 * do not fit ({@link Evaluator#timeMemoryMisses}): the write-up shows what the missing capacity would have bought.
 *
 * <p>Run: {@code java -cp "jobs/target/ridgeline-jobs-*.jar:jobs/target/lib/*"
 * io.ridgeline.jobs.studies.InferenceDramStudy OUT.csv [SWEEP.yaml]}
 */
public final class InferenceDramStudy {
    static final Path SWEEP = Path.of("sweeps/study-3-inference-dram.yaml");
    static final String HEADER = "design,chip,dram,stacks,memory_bw_tbyte_s,memory_gib,bf16_tflops,tdp_w,model,tp,"
            + "batch,input_tokens,output_tokens,status,detail,ttft_ms,tpot_ms,e2e_latency_s,"
            + "output_tokens_per_s_per_gpu,max_batch,bottleneck,compute_s,memory_bound_s,communication_s,overhead_s,"
            + "joules_per_output_token";

    private InferenceDramStudy() {
    }

    /** Every point of the study as CSV lines (header first), by design, DRAM, TP and batch. */
    public static List<String> rows(Path sweep) {
        SweepSpec spec = SweepLoader.load(sweep);
        Evaluator ev = new Evaluator(spec).timeMemoryMisses(true);
        List<ResultRow> rows = new ArrayList<>();
        for (long i = 0; i < ev.grid().size(); i++) {
            rows.addAll(ev.evaluate(i));
        }
        rows.sort(Comparator.comparing((ResultRow r) -> spec.derived().indexOf(design(spec, r)))
                .thenComparing(r -> r.count(ResultRow.Count.TP)).thenComparing(r -> r.workload().globalBatch()));
        List<String> out = new ArrayList<>();
        out.add(HEADER);
        for (ResultRow r : rows) {
            out.add(line(spec, r));
        }
        return out;
    }

    private static io.ridgeline.engine.sweep.DerivedDesign design(SweepSpec spec, ResultRow r) {
        return spec.derived().stream().filter(d -> d.id().equals(r.chip().id())).findFirst().orElseThrow();
    }

    private static String line(SweepSpec spec, ResultRow r) {
        Chip chip = r.chip();
        io.ridgeline.engine.sweep.DerivedDesign d = design(spec, r);
        String name = d.id().substring(0, d.id().indexOf("-" + d.architecture() + "-"));
        boolean ok = r.status() == PointStatus.OK;
        return String.join(",", name, chip.id(), r.text(ResultRow.Text.DRAM_TYPE),
                Integer.toString(r.count(ResultRow.Count.DRAM_STACKS)), num(chip.memoryBytesPerSecond() / 1e12),
                num(chip.memoryBytes() / (1L << 30)), num(chip.peakFlopsPerSecond(Precision.BF16) / 1e12),
                num(chip.tdpWatts()), r.model().name(), Integer.toString(r.count(ResultRow.Count.TP)),
                Integer.toString(r.workload().globalBatch()), Integer.toString(r.workload().inputTokens()),
                Integer.toString(r.workload().outputTokens()), r.status().id(), quote(ok ? "" : r.detail()),
                num(r.metric(Metric.TTFT_S) * 1e3), num(r.metric(Metric.TPOT_S) * 1e3),
                num(r.metric(Metric.E2E_LATENCY_S)), num(r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU)),
                Integer.toString((int) r.metric(Metric.MAX_BATCH)), r.text(ResultRow.Text.BOTTLENECK),
                num(r.metric(Metric.COMPUTE_S)), num(r.metric(Metric.MEMORY_BOUND_S)), num(r.metric(Metric.TP_COMM_S)),
                num(r.metric(Metric.OVERHEAD_S)), num(r.metric(Metric.ENERGY_PER_TOKEN_J)));
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "";
    }

    private static String quote(String s) {
        return s == null || s.isEmpty() ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "study-3-inference-dram.csv");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        List<String> rows = rows(args.length > 1 ? Path.of(args[1]) : SWEEP);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (String r : rows) {
                w.write(r);
                w.write('\n');
            }
        }
        System.out.printf("wrote %s (%d points)%n", file, rows.size() - 1);
    }
}
