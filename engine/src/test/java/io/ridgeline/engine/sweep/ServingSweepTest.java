package io.ridgeline.engine.sweep;

import io.ridgeline.engine.evaluation.GridRows;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.inference.DisaggregatedServing;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Serving modes, load and disaggregation as keys of an inference phase (issue 10): the reader's messages, the rows
 * they produce (equal to the engine's own serving calls on the same runtime profile), and the latency-throughput
 * frontier a concurrency axis gives.
 */
class ServingSweepTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());
    private static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    private static final HardwareCatalog HW = HardwareCatalog.bundled();

    private static String sweep(String phase, String chip, String parallelism, String goals) {
        return String.join("\n", "name: s", "models: [llama3.1-70b]",
                "phases: [{phase: inference, input_tokens: [1024], output_tokens: [256], weight_precision: fp8, "
                        + "activation_precision: fp8, kv_cache_precision: fp8" + phase + "}]",
                "hardware: {presets: [" + chip + "]}", "cluster: {gpu_count: [8]}", "parallelism: " + parallelism,
                goals, "");
    }

    private static String explicit(int tp) {
        return "{mode: explicit, plans: [{tp: " + tp + "}]}";
    }

    private static String only(String yaml) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LOADER.parse("s.yaml", yaml));
        assertEquals(1, e.errors().size(), e.getMessage());
        return e.errors().get(0).toString();
    }


    private static InferencePlan trtPlan(int tp, int dp) {
        return new InferencePlan(tp, 1, 1, dp, Precision.FP8, Precision.FP8, Precision.FP8, false, true)
                .withRuntime(StackCatalog.bundled().profile("trt-llm@1.0").serving());
    }

    private static SystemSpec node(String chip) {
        return SystemSpec.of(HW.chip(chip), 8, HW.defaultNetwork(HW.chip(chip)));
    }

    // ---- the reader ----

    @Test
    void aContinuousModeTakesNoBatch() {
        assertEquals("s.yaml:3:172: phases[0].batch: expected no batch in mode [saturated] (a static batch belongs "
                + "to mode static; continuous batching takes concurrency: a cap (saturated) or clients (online)), "
                + "found a list", only(sweep(", mode: saturated, batch: [8]", "h100-sxm", explicit(8), "")));
    }

    @Test
    void onlineNeedsClientsOrARateAndNotBoth() {
        assertTrue(only(sweep(", mode: online", "h100-sxm", explicit(8), "")).contains(
                "phases[0].concurrency: expected concurrent clients per replica (concurrency) or a request rate "
                        + "(requests_per_s) for mode online, found neither"));
        assertTrue(only(sweep(", mode: online, concurrency: 4, requests_per_s: 2", "h100-sxm", explicit(8), ""))
                .contains("phases[0].requests_per_s: expected either concurrency (clients) or requests_per_s in mode "
                        + "online, not both, found both"));
        assertTrue(only(sweep(", mode: saturated, requests_per_s: 2", "h100-sxm", explicit(8), ""))
                .contains("phases[0].requests_per_s: expected requests_per_s only in mode online"));
    }

    @Test
    void aStaticModeStillNeedsItsBatchAndAnUnknownModeIsNamed() {
        String noBatch = only(sweep("", "h100-sxm", explicit(8), ""));
        assertTrue(noBatch.contains("phases[0].batch: expected a list of static batch sizes (requests), as mode "
                + "static takes, found no 'batch' key"), noBatch);
        String unknown = only(sweep(", mode: saturate", "h100-sxm", explicit(8), ""));
        assertTrue(unknown.contains("phases[0].mode: expected one of [online, saturated, static] (did you mean "
                + "'saturated'?)"), unknown);
    }

    @Test
    void disaggregationIsASplitAtSaturation() {
        assertTrue(only(sweep(", mode: saturated, disaggregation: [\"1-3\"]", "h100-sxm", explicit(2), ""))
                .contains("phases[0].disaggregation[0]: expected none or prefill:decode replicas of one deployment "
                        + "unit, each in [1, 64] (e.g. \"1:3\")"));
        assertTrue(only(sweep(", mode: online, concurrency: 8, disaggregation: [\"1:1\"]", "h100-sxm", explicit(4),
                "")).contains("phases[0].disaggregation: expected a prefill:decode split with mode saturated only"));
        assertTrue(only(sweep(", mode: saturated, disaggregation: [\"1:1\", \"1:1\"]", "h100-sxm", explicit(4), ""))
                .contains("phases[0].disaggregation[1]: expected distinct values"));
    }

    @Test
    void inferenceDefaultsToTheNewestTensorRtLlmProfileAndNoneOptsOut() {
        SweepSpec s = LOADER.parse("s.yaml", sweep(", batch: 8", "h100-sxm", explicit(8), ""));
        assertEquals("trt-llm@1.0", s.workloads().get(0).software());
        assertEquals("trt-llm@1.0 (default)", s.describeSoftware());
        assertEquals("trt-llm@1.0", GridRows.of(s).get(0).text(ResultRow.Text.SOFTWARE));
        SweepSpec none = LOADER.parse("s.yaml", sweep(", batch: 8, software: none, cuda_graphs: true", "h100-sxm",
                explicit(8), ""));
        assertEquals("", none.workloads().get(0).software());
        assertNull(GridRows.of(none).get(0).text(ResultRow.Text.SOFTWARE));
        assertTrue(only(sweep(", batch: 8, cuda_graphs: true", "h100-sxm", explicit(8), "")).contains(
                "software: none takes cuda_graphs, and the default stack is trt-llm@1.0"));
    }

    // ---- the rows ----

    @Test
    void aSaturatedPointIsTheEngineAtSaturationOnTheStacksRuntime() {
        ResultRow r = GridRows.of(LOADER.parse("s.yaml", sweep(", mode: saturated", "h100-sxm", explicit(8), ""))).get(0);
        InferenceResult direct = new InferenceStep().evaluate(L70, node("h100-sxm"), trtPlan(8, 1),
                InferenceWorkload.saturated(1024, 256));
        assertEquals(PointStatus.OK, r.status());
        assertEquals("saturated", r.text(ResultRow.Text.SERVING_MODE));
        assertEquals("none", r.text(ResultRow.Text.DISAGGREGATION));
        assertEquals(ResultRow.NO_COUNT, r.count(ResultRow.Count.GLOBAL_BATCH));
        assertEquals(ResultRow.NO_COUNT, r.count(ResultRow.Count.CONCURRENCY));
        assertEquals(direct.outputTokensPerSecondPerGpu(), r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU), 1e-9);
        assertEquals(direct.concurrency(), r.metric(Metric.IN_FLIGHT_REQUESTS), 1e-9);
        assertEquals(1 / direct.tpotSeconds(), r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER), 1e-9);
        assertTrue(r.metric(Metric.IN_FLIGHT_REQUESTS) > 100, "settles at the KV cache's limit, not at 1");
        assertEquals(r.metric(Metric.TOKENS_PER_S) / 256, r.metric(Metric.REQUESTS_PER_S), 1e-9);
        assertTrue(Double.isNaN(r.metric(Metric.KV_TRANSFER_S)));
    }

    @Test
    void anOnlinePointQueuesClientsBeyondWhatTheReplicaRuns() {
        List<ResultRow> rs = GridRows.of(LOADER.parse("s.yaml", sweep(", mode: online, concurrency: [16, 100000]",
                "h100-sxm", explicit(8), "")));
        ResultRow few = rs.get(0);
        ResultRow many = rs.get(1);
        InferenceResult direct = new InferenceStep().evaluate(L70, node("h100-sxm"), trtPlan(8, 1),
                InferenceWorkload.online(16, 1024, 256));
        assertEquals("online", few.text(ResultRow.Text.SERVING_MODE));
        assertEquals(16, few.count(ResultRow.Count.CONCURRENCY));
        assertEquals(direct.ttftSeconds(), few.metric(Metric.TTFT_S), 1e-12);
        assertEquals(direct.tpotSeconds(), few.metric(Metric.TPOT_S), 1e-12);
        assertEquals(16, few.metric(Metric.IN_FLIGHT_REQUESTS), 1e-9);
        // 100,000 clients: the replica runs what its KV cache holds; the rest wait, and their wait is in the TTFT.
        assertTrue(many.metric(Metric.IN_FLIGHT_REQUESTS) < 100_000);
        assertTrue(many.metric(Metric.TTFT_S) > 10 * few.metric(Metric.TTFT_S));
    }

    @Test
    void aDisaggregatedPointSplitsTheNodeIntoPrefillAndDecodeReplicas() {
        List<ResultRow> rs = GridRows.of(LOADER.parse("s.yaml", sweep(", mode: saturated, concurrency: 64, "
                + "disaggregation: [none, \"1:3\"]", "h100-sxm", explicit(2), "")));
        ResultRow aggregated = rs.get(0);
        ResultRow split = rs.get(1);
        assertEquals("1:3", split.text(ResultRow.Text.DISAGGREGATION));
        assertEquals(2, split.metric(Metric.PREFILL_GPUS), 1e-9);
        assertEquals(6, split.metric(Metric.DECODE_GPUS), 1e-9);
        assertTrue(Double.isNaN(aggregated.metric(Metric.PREFILL_GPUS)));
        DisaggregatedServing.Result direct = new DisaggregatedServing().evaluate(L70, node("h100-sxm"),
                trtPlan(2, 4), 1, trtPlan(2, 4), 3, 1024, 256, 64);
        assertEquals(direct.requestsPerSecond(), split.metric(Metric.REQUESTS_PER_S), 1e-9);
        assertEquals(direct.requestsPerSecond() * 256 / 8, split.metric(Metric.TOKENS_PER_S_PER_GPU), 1e-9);
        assertTrue(split.metric(Metric.KV_TRANSFER_S) > 0);
        assertTrue(split.metric(Metric.TTFT_S) > split.metric(Metric.KV_TRANSFER_S));
        assertTrue(split.metric(Metric.IN_FLIGHT_REQUESTS) <= 64 + 1e-9);
        // Decode-only steps: no prompt rides in them, so a user's tokens come faster than in the mixed steps of the
        // aggregated replicas at the same cap.
        assertTrue(split.metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER)
                > aggregated.metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER));
    }

    @Test
    void aSplitThatLeavesNoWholeUnitHasNoPlan() {
        // tp 8 on 8 GPUs is one replica: no unit of 1 prefill + 1 decode replica fits.
        ResultRow r = GridRows.of(LOADER.parse("s.yaml", sweep(", mode: saturated, disaggregation: \"1:1\"", "h100-sxm",
                "{mode: search, tp: [8], pp: [1]}", ""))).get(0);
        assertEquals(PointStatus.NO_VALID_PLAN, r.status());
        assertTrue(r.detail().contains("deployment unit"), r.detail());
    }

    @Test
    void anExplicitPlanWithoutWholeUnitsIsAPlanShapeRowNamingTheSplit() {
        ResultRow r = GridRows.of(LOADER.parse("s.yaml", sweep(", mode: saturated, disaggregation: \"1:1\"", "h100-sxm",
                explicit(8), ""))).get(0);
        assertEquals(PointStatus.PLAN_SHAPE, r.status());
        assertTrue(r.detail().contains("plan.dp: expected a multiple of the 2 replicas of one disaggregation unit "
                + "(1:1 prefill:decode), found 1"), r.detail());
    }

    @Test
    void aConcurrencyAxisTradesSpeedPerUserForThroughputPerGpuAlongTheFrontier() {
        SweepSpec s = LOADER.parse("s.yaml", sweep(", mode: saturated, concurrency: [1, 4, 16, 64, 256, 1024]",
                "b200", explicit(4), "objectives: [{max: output_tokens_per_s_per_user}, "
                        + "{max: output_tokens_per_s_per_gpu}]\nfrontier: {group_by: [model]}"));
        List<ResultRow> rs = GridRows.of(s);
        assertEquals(6, rs.size());
        for (int i = 1; i < rs.size(); i++) {
            // More requests in flight: each user slower, each GPU busier.
            assertTrue(rs.get(i).metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER)
                    < rs.get(i - 1).metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER), "row " + i);
            assertTrue(rs.get(i).metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU)
                    > rs.get(i - 1).metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU), "row " + i);
        }
        // The frontier (Skyline over both objectives) keeps every cap below the KV limit, and along it throughput per
        // GPU falls as speed per user rises.
        List<double[]> points = new ArrayList<>();
        for (ResultRow r : rs) {
            points.add(new double[]{r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER),
                    r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU)});
        }
        List<double[]> frontier = new ArrayList<>();
        for (double[] p : points) {
            boolean dominated = false;
            for (double[] q : points) {
                dominated |= q[0] >= p[0] && q[1] >= p[1] && (q[0] > p[0] || q[1] > p[1]);
            }
            if (!dominated) {
                frontier.add(p);
            }
        }
        assertTrue(frontier.size() >= 5, "caps on the frontier: " + frontier.size());
        frontier.sort(Comparator.comparingDouble(p -> p[0]));
        for (int i = 1; i < frontier.size(); i++) {
            assertTrue(frontier.get(i)[1] < frontier.get(i - 1)[1]);
        }
    }

    @Test
    void theServing70bSweepValidates() throws Exception {
        SweepSpec s = LOADER.read(Path.of(System.getProperty("user.dir")).resolve("../sweeps/serving-70b.yaml"));
        // 2 precision entries x 11 caps x 3 splits, 4 chips, one GPU count.
        assertEquals(66, s.workloads().size());
        assertEquals(264, s.grid().size());
        assertEquals(List.of(Metric.OUTPUT_TOKENS_PER_S_PER_USER, Metric.OUTPUT_TOKENS_PER_S_PER_GPU),
                s.objectives().stream().map(SweepSpec.Objective::metric).toList());
    }
}
