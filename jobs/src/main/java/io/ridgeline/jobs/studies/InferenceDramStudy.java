package io.ridgeline.jobs.studies;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.technology.ChipBuilder;
import io.ridgeline.engine.technology.DerivedChip;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Study 3 of docs/studies (seed paper, Kundu et al. 2024): inference latency against DRAM technology, HBM2e to HBM4
 * (and HBM4e beyond it), on technology-derived chips.
 *
 * <p>Why a driver: sweeps refuse {@code phase: inference} until the inference phase lands in the sweep job, and
 * {@code ridgeline eval} takes catalogue presets only. This class evaluates exactly the grid of
 * {@code sweeps/study-3-inference-dram.yaml} (same derived designs, model, workloads and plan) by calling the engine
 * directly ({@link ChipBuilder} + {@link InferenceStep}), and writes one CSV row per point. When sweeps accept the
 * inference phase, running that sweep file replaces this driver; the numbers should agree, since both call the same
 * engine classes.
 *
 * <p>Run: {@code java -cp "jobs/target/ridgeline-jobs-*.jar:jobs/target/lib/*"
 * io.ridgeline.jobs.studies.InferenceDramStudy OUT.csv}
 */
public final class InferenceDramStudy {
    /** The derived designs: a Hopper-class and a Blackwell-class floor plan, each with every DRAM generation. */
    record Design(String name, String architecture, String node, int dies, double dieAreaMm2, double powerW,
                  double l2Mib, int stacks, String link, int links) {
    }

    static final List<Design> DESIGNS = List.of(
            new Design("s3-h", "hopper", "5nm", 1, 814, 700, 50, 5, "nvlink4", 18),
            new Design("s3-b", "blackwell", "5nm", 2, 800, 1000, 126, 8, "nvlink5", 18));
    static final List<String> DRAMS = List.of("hbm2e", "hbm3", "hbm3e", "hbm4", "hbm4e");
    static final String MODEL = "llama3-70b";
    /** Tensor parallelism of one replica: one GPU (capacity decides feasibility) and a full 8-GPU node. */
    static final List<Integer> TPS = List.of(1, 8);
    static final List<Integer> BATCHES = List.of(1, 64);
    static final int INPUT_TOKENS = 2048;
    static final int OUTPUT_TOKENS = 256;

    static final String HEADER = "design,chip,dram,stacks,memory_bw_tbps,memory_gib,bf16_tflops,tdp_w,model,tp,batch,"
            + "input_tokens,output_tokens,status,detail,ttft_ms,tpot_ms,e2e_latency_s,output_tokens_per_s_per_gpu,"
            + "max_batch,bottleneck,compute_s,memory_bound_s,communication_s,overhead_s,joules_per_output_token";

    private InferenceDramStudy() {
    }

    /** The chip id, in the sweep's format: name-architecture-node-DIESxAREAmm2-POWERw-DRAMxSTACKS. */
    static String chipId(Design d, String dram) {
        return String.format(Locale.ROOT, "%s-%s-%s-%dx%dmm2-%dw-%sx%d", d.name(), d.architecture(), d.node(),
                d.dies(), (long) d.dieAreaMm2(), (long) d.powerW(), dram, d.stacks());
    }

    static DerivedChip build(Design d, String dram) {
        return ChipBuilder.create(TechnologyCatalog.bundled()).id(chipId(d, dram)).architecture(d.architecture())
                .node(d.node()).dies(d.dies(), d.dieAreaMm2()).powerBudgetWatts(d.powerW())
                .l2Bytes(d.l2Mib() * 1024 * 1024).dram(dram, d.stacks()).scaleUp(d.link(), d.links(), 8).build();
    }

    /** Every point of the study as CSV lines (header first). */
    public static List<String> rows() {
        ModelSpec model = ModelCatalog.bundled().model(MODEL);
        HardwareCatalog hw = HardwareCatalog.bundled();
        InferenceStep step = new InferenceStep();
        List<String> out = new ArrayList<>();
        out.add(HEADER);
        for (Design d : DESIGNS) {
            for (String dram : DRAMS) {
                DerivedChip dc = build(d, dram);
                Chip chip = dc.chip();
                for (int tp : TPS) {
                    SystemSpec system = SystemSpec.of(chip, tp, hw.defaultNetwork(chip));
                    for (int b : BATCHES) {
                        InferenceResult r = step.evaluate(model, system, InferencePlan.tensorParallel(tp),
                                InferenceWorkload.staticBatch(b, INPUT_TOKENS, OUTPUT_TOKENS));
                        out.add(String.join(",", d.name(), chip.id(), dram, Integer.toString(dc.stacksFitted()),
                                num(chip.memoryBytesPerSecond() / 1e12), num(chip.memoryBytes() / (1L << 30)),
                                num(chip.peakFlopsPerSecond(Precision.BF16) / 1e12), num(dc.watts()), MODEL,
                                Integer.toString(tp), Integer.toString(b), Integer.toString(INPUT_TOKENS),
                                Integer.toString(OUTPUT_TOKENS), r.feasible() ? "ok" : r.infeasibility().name()
                                        .toLowerCase(Locale.ROOT), quote(r.feasible() ? "" : r.detail()),
                                num(r.ttftSeconds() * 1e3), num(r.tpotSeconds() * 1e3), num(r.e2eLatencySeconds()),
                                num(r.outputTokensPerSecondPerGpu()), Integer.toString(r.maxBatch()),
                                r.bottleneck().id(), num(r.computeSeconds()), num(r.memoryBoundSeconds()),
                                num(r.communicationSeconds()), num(r.overheadSeconds()),
                                num(r.joulesPerOutputToken())));
                    }
                }
            }
        }
        return out;
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
        List<String> rows = rows();
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (String r : rows) {
                w.write(r);
                w.write('\n');
            }
        }
        System.out.printf("wrote %s (%d points)%n", file, rows.size() - 1);
    }
}
