package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The inference plans a sweep searches per point. */
class InferencePointsTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());

    @Test
    void inferenceSearchesExpertParallelismForMoeModelsOnly() {
        SweepSpec s = LOADER.parse("m.yaml", String.join("\n", "name: m", "models: [mixtral-8x7b, llama2-7b]",
                "phases: [{phase: inference, batch: [1], input_tokens: [512], output_tokens: [64]}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [8]}",
                "parallelism: {tp: [1, 2, 4, 8], pp: [1], ep: [1, 2, 4, 8]}", ""));
        List<String> moe = new ArrayList<>();
        for (InferencePlan p : InferencePoints.enumerate(ModelCatalog.bundled().model("mixtral-8x7b"), 8,
                s.workloads().get(0), s.parallelism(), true)) {
            moe.add(p.tp() + "x" + p.ep() + "x" + p.dp());
        }
        // Every tp x ep <= 8: replicas fill the cluster.
        assertEquals(List.of("1x1x8", "1x2x4", "1x4x2", "1x8x1", "2x1x4", "2x2x2", "2x4x1", "4x1x2", "4x2x1", "8x1x1"),
                moe);
        for (InferencePlan p : InferencePoints.enumerate(ModelCatalog.bundled().model("llama2-7b"), 8,
                s.workloads().get(0), s.parallelism(), true)) {
            assertEquals(1, p.ep(), p.toString());
        }
    }
}
