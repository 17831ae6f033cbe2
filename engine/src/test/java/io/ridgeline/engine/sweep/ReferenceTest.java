package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** sweeps/reference.yaml is the vocabulary: the loader's keys and defaults come from it, and nowhere else. */
class ReferenceTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());
    private static final String MINIMAL = String.join("\n", "name: m", "models: [llama2-7b]",
            "phases: [{phase: training, seq_len: 2048, global_batch: 64}]", "hardware: {presets: [h100-sxm]}",
            "cluster: {gpu_count: 8}", "parallelism: {}", "");

    @Test
    void theBundledReferenceIsTheRepositoryFile() throws Exception {
        Path file = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("sweeps/reference.yaml");
        try (var in = ReferenceTest.class.getClassLoader().getResourceAsStream(Reference.RESOURCE)) {
            assertEquals(Files.readString(file), new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void aMinimalSweepTakesEveryDefaultFromTheReference() {
        SweepSpec s = LOADER.parse("m.yaml", MINIMAL);
        SweepSpec.Parallelism p = s.parallelism();
        assertEquals(SweepSpec.Mode.SEARCH, p.mode());
        assertEquals(SweepSpec.Keep.BEST, p.keep());
        assertEquals(List.of(1, 2, 4, 8), p.tp());
        assertEquals(List.of(1, 2, 4, 8, 16), p.pp());
        assertEquals(List.of(1, 2, 4), p.microBatch());
        assertEquals(List.of(1), p.zero());
        assertEquals(List.of(true), p.sp());
        assertEquals(List.of(Recompute.SELECTIVE), p.recompute());
        assertEquals(List.of(Precision.BF16), p.precision());
        assertEquals(List.of(SweepSpec.DEFAULT), s.scaleOuts());
        assertEquals(List.of(0), s.scaleUpDomains());
        assertEquals(List.of(TopologyAxis.NONE), s.topologies());
        assertEquals(List.of(GroupColumn.MODEL, GroupColumn.PHASE, GroupColumn.SEQ_LEN, GroupColumn.GLOBAL_BATCH),
                s.groupBy());
        assertEquals(SweepSpec.PointsPolicy.FEASIBLE, s.points());
        assertEquals("tokens_per_s", s.objectives().get(0).metric().column());
        assertEquals("cost_usd", s.objectives().get(1).metric().column());
        assertEquals("megatron-bridge@25.11", s.workloads().get(0).software());
    }

    @Test
    void theReferenceCostDefaultsAreTheTcoModelsOwn() {
        CostSpec c = LOADER.parse("m.yaml", MINIMAL).cost();
        assertEquals(TcoParameters.defaults(), c.parameters());
        assertEquals(0.0, c.tokens());
    }

    @Test
    void theRenamedRateKeyNamesItsNewName() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LOADER.parse("m.yaml",
                MINIMAL + "network: {scale_out_gbps: [400]}\n"));
        assertEquals("m.yaml:7:11: network.scale_out_gbps: expected scale_out_gbit_s (the same per-GPU Gbit/s, named "
                + "for its unit), found 'scale_out_gbps'", e.getMessage());
    }
}
