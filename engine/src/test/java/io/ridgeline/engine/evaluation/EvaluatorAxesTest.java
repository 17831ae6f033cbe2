package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.cost.TcoParameters.Knob;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.technology.DerivedChip;
import io.ridgeline.engine.technology.StackLimit;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The inference phase, the topology axis and the TCO columns, evaluated point by point (no Spark). */
class EvaluatorAxesTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());

    private record Row(long point, PointStatus status, String detail, String plan, String topology, double[] metrics) {
        double m(Metric metric) {
            return metrics[metric.ordinal()];
        }
    }

    private static List<Row> run(SweepSpec s) {
        Evaluator ev = new Evaluator(s);
        List<Row> out = new ArrayList<>();
        for (long i = 0; i < ev.grid().size(); i++) {
            ev.evaluate(i, p -> out.add(new Row(p.pointIndex(), p.status(), p.detail(),
                    p.plan() == null ? ""
                            : p.plan().toString(), p.text(ResultRow.Text.TOPOLOGY), p.metrics().clone())));
        }
        return out;
    }

    private static SweepSpec inference(String extra) {
        return LOADER.parse("i.yaml", String.join("\n", "name: i", "models: [llama2-7b, llama2-70b]",
                "phases: [{phase: inference, batch: [1, 64], input_tokens: [1024], output_tokens: [256]}]",
                "hardware: {presets: [a100-80g, h100-sxm]}", "cluster: {gpu_count: [8]}", extra, ""));
    }

    @Test
    void inferencePointsCarryLatencyThroughputAndKvCacheColumns() {
        List<Row> rows = run(inference("parallelism: {tp: [1, 2, 4, 8], pp: [1]}\nobjectives: [{min: tpot_s}]"));
        assertEquals(2 * 2 * 2, rows.size());
        for (Row r : rows) {
            assertEquals(PointStatus.OK, r.status(), r.detail());
            assertTrue(r.m(Metric.TTFT_S) > 0 && r.m(Metric.TPOT_S) > 0, r.toString());
            assertTrue(r.m(Metric.E2E_LATENCY_S) > r.m(Metric.TTFT_S));
            assertTrue(r.m(Metric.MAX_BATCH) >= 1);
            assertTrue(r.m(Metric.KV_CACHE_BYTES) > 0);
            assertTrue(r.m(Metric.USD_PER_MILLION_TOKENS) > 0);
            assertTrue(Double.isNaN(r.m(Metric.STEP_TIME_S)), "training-only columns stay null");
            // min tpot_s picks the widest tensor parallelism: TP8 decodes fastest.
            assertTrue(r.plan().startsWith("tp8"), r.plan());
        }
    }

    @Test
    void maxThroughputPrefersReplicasOverTensorParallelism() {
        List<Row> rows = run(inference("parallelism: {tp: [1, 2, 4, 8], pp: [1]}\n"
                + "objectives: [{max: output_tokens_per_s_per_gpu}]"));
        // llama2-7b fits one GPU: eight TP1 replicas beat any tensor-parallel split per GPU.
        assertTrue(rows.get(0).plan().startsWith("tp1-dp8"), rows.get(0).plan());
    }

    @Test
    void aModelThatDoesNotFitIsARowWithItsReason() {
        List<Row> rows = run(inference("parallelism: {tp: [1], pp: [1]}"));
        Row big = rows.stream().filter(r -> r.status() != PointStatus.OK).findFirst().orElseThrow();
        assertEquals(PointStatus.MEMORY_CAPACITY, big.status());
        assertTrue(big.detail().startsWith("needs "), big.detail());
        assertTrue(big.m(Metric.HBM_BYTES) > big.m(Metric.HBM_CAPACITY_BYTES));
        assertTrue(Double.isNaN(big.m(Metric.TTFT_S)));
    }

    @Test
    void mixtralAtBatchOnePrefersTensorOverExpertParallelism() {
        List<Row> rows = run(LOADER.parse("m2.yaml", String.join("\n", "name: m2", "models: [mixtral-8x7b]",
                "phases: [{phase: inference, batch: [1], input_tokens: [512], output_tokens: [64], software: none}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [8]}",
                "parallelism: {tp: [1, 2, 4, 8], pp: [1], ep: [1, 2, 4, 8]}", "objectives: [{min: tpot_s}]", "")));
        assertEquals(1, rows.size());
        assertTrue(rows.get(0).plan().startsWith("tp8-w"), rows.get(0).plan());
    }

    @Test
    void inferenceSweepsAreDeterministic() {
        SweepSpec s = inference("parallelism: {tp: [1, 2, 4, 8], pp: [1, 2], keep: frontier}\n"
                + "objectives: [{min: tpot_s}, {max: output_tokens_per_s_per_gpu}]");
        List<Row> a = run(s);
        List<Row> b = run(s);
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).plan(), b.get(i).plan());
            assertArrayEquals(a.get(i).metrics(), b.get(i).metrics());
        }
    }

    private static SweepSpec training(String topologies, String extra) {
        return LOADER.parse("t.yaml", String.join("\n", "name: t", "models: [gpt3-175b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [256]}]",
                "hardware: {presets: [a100-80g]}", "network: {topology: " + topologies + "}",
                "cluster: {gpu_count: [256]}", extra, ""));
    }

    @Test
    void oversubscriptionSlowsAPipelineHeavyPlan() {
        // tp8 x pp4 x dp8: pipeline neighbours are 64 GPUs apart, so every p2p hop leaves its 20-port leaf.
        List<Row> rows = run(training("[{kind: fat-tree, oversubscription: 1, name: full}, "
                        + "{kind: fat-tree, oversubscription: 4, name: thin}, none]",
                "parallelism: {mode: explicit, plans: [{tp: 8, pp: 4, dp: 8, micro_batch: 1}]}"));
        assertEquals(3, rows.size());
        Row full = rows.get(0);
        Row thin = rows.get(1);
        Row flat = rows.get(2);
        assertEquals("full", full.topology());
        assertEquals("thin", thin.topology());
        assertEquals(PointStatus.OK, thin.status(), thin.detail());
        assertTrue(thin.m(Metric.PP_COMM_S) > 1.5 * full.m(Metric.PP_COMM_S),
                thin.m(Metric.PP_COMM_S) + " vs " + full.m(Metric.PP_COMM_S));
        assertTrue(thin.m(Metric.STEP_TIME_S) > full.m(Metric.STEP_TIME_S));
        // The fabric is priced: fewer spine ports under 4:1, none without a topology.
        assertTrue(thin.m(Metric.FABRIC_CAPEX_USD) < full.m(Metric.FABRIC_CAPEX_USD));
        assertTrue(Double.isNaN(flat.m(Metric.FABRIC_CAPEX_USD)));
        assertTrue(full.m(Metric.CLUSTER_CAPEX_USD) > 0);
        // cost_usd keeps its schema-1 meaning: chips only.
        assertEquals(full.m(Metric.COST_USD), flat.m(Metric.COST_USD));
    }

    @Test
    void everyTopologyKindBuildsAndEvaluates() {
        List<Row> rows = run(training("[fat-tree, rail-optimized, dragonfly, ring, torus, "
                        + "{kind: torus, dimensions: 2, name: torus2d}]",
                "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}]}"));
        assertEquals(List.of("fat-tree", "rail-optimized", "dragonfly", "ring", "torus", "torus2d"),
                rows.stream().map(Row::topology).toList());
        for (Row r : rows) {
            assertEquals(PointStatus.OK, r.status(), r.topology() + ": " + r.detail());
            assertTrue(r.m(Metric.FABRIC_CAPEX_USD) > 0, r.topology());
        }
    }

    @Test
    void tcoColumnsFollowTheCostModelAndTheSectionsOverrides() {
        SweepSpec s = training("[none]", "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}]}\n"
                + "cost: {usd_per_kwh: 0.2, tokens: 3.0e11}");
        Row r = run(s).get(0);
        TcoModel tco = new TcoModel(TcoParameters.defaults().with(Knob.USD_PER_KWH, 0.2));
        double perHour = tco.gpuHour(HardwareCatalog.bundled().chip("a100-80g")).usdPerGpuHour();
        assertEquals(perHour, r.m(Metric.USD_PER_GPU_HOUR), 1e-12);
        double perMillion = perHour * 256 / 3600 / r.m(Metric.TOKENS_PER_S) * 1e6;
        assertEquals(perMillion, r.m(Metric.USD_PER_MILLION_TOKENS), perMillion * 1e-12);
        assertEquals(perMillion * 3.0e5, r.m(Metric.RUN_COST_USD), perMillion * 1e-6);
        assertTrue(r.m(Metric.WALL_ENERGY_PER_TOKEN_J) > r.m(Metric.ENERGY_PER_TOKEN_J),
                "wall-plug energy adds server overhead and PUE");
        SweepSpec noBudget = training("[none]", "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}]}");
        assertTrue(Double.isNaN(run(noBudget).get(0).m(Metric.RUN_COST_USD)));
    }

    @Test
    void trainingRowsLeaveInferenceColumnsNull() {
        Row r = run(training("[none]", "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}]}")).get(0);
        for (Metric m : Arrays.asList(Metric.TTFT_S, Metric.TPOT_S, Metric.MAX_BATCH, Metric.KV_CACHE_BYTES)) {
            assertTrue(Double.isNaN(r.m(m)), m.column());
        }
    }

    @Test
    void aShorelineLimitedDesignReportsTheStacksItHas() {
        // One 400 mm2 die: its two long edges (2 x 22.5 mm) hold 4 HBM3e PHYs of 10 mm, not the 8 asked for.
        SweepSpec s = LOADER.parse("d.yaml", String.join("\n", "name: d", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [64]}]",
                "hardware: {derived: [{name: edge, node: [5nm], die_area_mm2: 400, power_w: 700, dram: hbm3e, "
                        + "stacks: 8}]}", "cluster: {gpu_count: [8]}", "parallelism: {tp: [8], pp: [1]}", ""));
        DerivedChip built = s.derived().get(0).derive(TechnologyCatalog.bundled());
        assertEquals(8, built.stacksRequested());
        assertEquals(StackLimit.SHORELINE, built.stackLimit());
        List<ResultRow> rows = new Evaluator(s).evaluate(0);
        int stacks = rows.get(0).count(ResultRow.Count.DRAM_STACKS);
        assertEquals(built.stacksFitted(), stacks);
        assertTrue(stacks < 8, "fitted " + stacks);
        // The engine ran the chip with those stacks: its capacity is stacks x 24 GiB (catalog/dram_types.csv).
        assertEquals(stacks * 24.0 * (1L << 30), rows.get(0).metric(Metric.HBM_CAPACITY_BYTES));
    }
}
