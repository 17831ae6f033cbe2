package io.ridgeline.engine.fit;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.validation.CaseMapper;
import io.ridgeline.engine.workload.ModelSpec;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The step-time breakdown of chosen training rows (every micro-batch candidate when it is unstated): where the engine
 * spends a step, to compare mechanisms against a measured run.
 *
 * <p>Usage: {@code CASE_FILE CASE_ID_PREFIX...}
 */
public final class TrainingProbe {
    private TrainingProbe() {
    }

    public static void main(String[] args) {
        HardwareCatalog hw = HardwareCatalog.bundled();
        CaseMapper mapper = new CaseMapper(hw);
        TrainingStep step = new TrainingStep(hw);
        Set<String> prefixes = new HashSet<>(List.of(args).subList(1, args.length));
        for (CsvTable.Row r : CsvTable.read(Path.of(args[0])).rows()) {
            String id = r.string("case_id");
            if (!r.string("phase").equals("training") || prefixes.stream().noneMatch(id::startsWith)) {
                continue;
            }
            ModelSpec model = mapper.model(r);
            int seq = (int) r.integer("seq_len");
            SystemSpec system = mapper.system(r);
            int mbStated = r.isEmpty("micro_batch") ? 0 : (int) r.integer("micro_batch");
            TrainingPlan base = mapper.trainingPlan(r, Math.max(1, mbStated), mapper.stack(r).profile());
            int perReplica = base.globalBatch() / base.dp();
            for (int mb = 1; mb <= Math.min(perReplica, 64); mb++) {
                if ((mbStated > 0 && mb != mbStated) || perReplica % mb != 0) {
                    continue;
                }
                TrainingPlan plan = base.withMicroBatch(mb);
                if (ShapeRules.training(model, seq, plan) != null) {
                    System.out.println(id + " mb" + mb + " " + ShapeRules.training(model, seq, plan).detail());
                    continue;
                }
                TrainingResult t = step.evaluate(model, seq, system, plan);
                double tps = t.tokensPerSecond() / system.gpuCount();
                System.out.printf(Locale.ROOT, "%s %s measured %s predicted %.0f (%+.1f%%) step %.3fs: gemm %.3f"
                                + " mem %.3f tp %.3f cp %.3f ep %.3f pp %.3f dp %.3f bubble %.3f opt %.3f host %.3f"
                                + " | mem %.1f GiB (w %.1f g %.1f o %.1f a %.1f) recompute %.2f mfu %.3f %s%n",
                        id, plan, r.string("measured"), tps, (tps / r.positive("measured") - 1) * 100,
                        t.stepTimeSeconds(), t.computeSeconds(), t.memoryBoundSeconds(), t.tpCommSeconds(),
                        t.cpCommSeconds(), t.epCommSeconds(), t.ppCommSeconds(), t.dpCommSeconds(), t.bubbleSeconds(),
                        t.optimizerSeconds(), t.overheadSeconds(), t.totalMemoryBytes() / (1L << 30),
                        t.weightBytes() / (1L << 30), t.gradientBytes() / (1L << 30), t.optimizerBytes() / (1L << 30),
                        t.activationBytes() / (1L << 30), t.recomputedLayerFraction(), t.mfuFraction(),
                        t.feasible() ? "" : t.detail());
            }
        }
    }
}
