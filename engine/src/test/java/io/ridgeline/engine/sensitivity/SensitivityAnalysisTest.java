package io.ridgeline.engine.sensitivity;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.GridRows;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Resource;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.ChipFamily;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SensitivityAnalysisTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());
    private static final HardwareCatalog HW = HardwareCatalog.bundled();

    private static SweepSpec spec(String... lines) {
        return LOADER.parse("s.yaml", String.join("\n", lines) + "\n");
    }

    /** GPT-3 175B training on H100s at a large batch: GEMM-heavy and compute-bound. */
    private static SweepSpec training(String parallelism, boolean sensitivity) {
        return spec("name: t", "models: [gpt3-175b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [1536]}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [512]}", parallelism,
                "objectives: [{max: tokens_per_s}]", "output: {sensitivity: " + sensitivity + "}");
    }

    /** Llama-3 8B decoding one request on one H100 with CUDA graphs: weight streaming. */
    private static SweepSpec decode(boolean sensitivity) {
        return spec("name: d", "models: [llama3-8b]",
                "phases: [{phase: inference, batch: [1], input_tokens: [128], output_tokens: [512], "
                        + "software: none, cuda_graphs: [true]}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [1]}", "parallelism: {tp: [1], pp: [1]}",
                "objectives: [{max: tokens_per_s}]", "output: {sensitivity: " + sensitivity + "}");
    }


    /** tokens/s of the row's point and plan on a system the test builds itself (not through Perturbation). */
    private static double rateOn(SweepSpec s, ResultRow row, UnaryOperator<SystemSpec> change) {
        double[] m = new double[Metric.values().length];
        new Evaluator(s, ModelCatalog.bundled(), HW, change::apply).evaluatePlan(row.pointIndex(), row.planIndex(), m);
        return m[Metric.TOKENS_PER_S.ordinal()];
    }

    /** The finite differences of the engine, each system built here with the records' own copies. */
    private static void assertFixedPlanIsTheFiniteDifference(SweepSpec s, ResultRow row) {
        double base = row.metric(Metric.TOKENS_PER_S);
        Precision p = Precision.parse(row.text(ResultRow.Text.PRECISION));
        List<UnaryOperator<SystemSpec>> changes = List.of(
                sys -> sys.withChip(peak(sys.chip(), p, 1.1)),
                sys -> sys.withChip(sys.chip().withMemory(sys.chip().memoryType(), sys.chip().memoryBytes(),
                        1.1 * sys.chip().memoryBytesPerSecond())),
                sys -> sys.withChip(sys.chip().withMemory(sys.chip().memoryType(), 1.1 * sys.chip().memoryBytes(),
                        sys.chip().memoryBytesPerSecond())),
                sys -> sys.withScaleUpBytesPerSecond(1.1 * sys.scaleUpBytesPerSecond()),
                sys -> sys.withScaleOut(sys.scaleOut().withGbitPerSecond(
                        1.1 * sys.scaleOut().bytesPerSecond() * 8 / 1e9)),
                sys -> {
                    ScaleOutNetwork n = sys.scaleOut();
                    return new SystemSpec(sys.chip(), sys.gpuCount(), sys.scaleUpDomain(), sys.scaleUpBytesPerSecond(),
                            sys.scaleUpStepLatencySeconds() / 1.1, new ScaleOutNetwork(n.id(), n.name(),
                            n.bytesPerSecond(), n.stepLatencySeconds() / 1.1, n.efficiency(), n.joulesPerBit(),
                            n.usdPerPort(), n.source()), sys.scaleOutTopology());
                },
                sys -> sys.withChip(sys.chip().withFamily(launch(sys.chip().family(), 1 / 1.1))));
        for (Resource r : Resource.values()) {
            double finiteDifference = rateOn(s, row, changes.get(r.ordinal())) / base - 1;
            double column = row.metric(r.fixedPlan());
            assertEquals(finiteDifference, column, Math.max(0.01 * Math.abs(finiteDifference), 1e-9), r.id());
            assertTrue(row.metric(r.searched()) >= column - 1e-12,
                    r.id() + ": a search keeps the plan if nothing beats it");
        }
    }

    private static Chip peak(Chip c, Precision p, double f) {
        double[] peaks = c.peakFlopsPerSecond().clone();
        peaks[p.ordinal()] *= f;
        return new Chip(c.id(), c.name(), c.family(), c.memoryType(), c.memoryBytes(), c.memoryBytesPerSecond(), peaks,
                c.smCount(), c.clockHz(), c.l2Bytes(), c.l2BytesPerSecond(), c.smemBytesPerSm(), c.scaleUpLink(),
                c.scaleUpBytesPerSecond(), c.scaleUpDomain(), c.tdpWatts(), c.priceUsd(), c.source());
    }

    private static ChipFamily launch(ChipFamily f, double factor) {
        return new ChipFamily(f.name(), f.gemmPeakFraction(), f.dramFraction(), f.l2Fraction(),
                f.kernelLaunchSeconds() * factor, f.tileOverheadCycles(), f.overlapExponent(), f.flashFraction(),
                f.gemmLowPrecisionFraction(), f.fusedAttentionFraction(), f.source(), f.fp4GemmFraction(),
                f.expPerClockPerSm(), f.attentionTileOverheadKeys());
    }

    @Test
    void fixedPlanSensitivitiesAreTheEnginesFiniteDifferences() {
        SweepSpec t = training("parallelism: {tp: [4, 8], pp: [8, 16], micro_batch: [1, 2]}", true);
        SweepSpec d = decode(true);
        for (SweepSpec s : List.of(t, d)) {
            List<ResultRow> rows = GridRows.of(s);
            assertEquals(1, rows.size());
            assertEquals(PointStatus.OK, rows.get(0).status(), rows.get(0).detail());
            assertFixedPlanIsTheFiniteDifference(s, rows.get(0));
        }
    }

    @Test
    void theBoundedSearchFindsWhatAFullSearchOfTheImprovedHardwareFinds() {
        SweepSpec s = training("parallelism: {tp: [2, 4, 8], pp: [4, 8, 16], micro_batch: [1, 2]}", true);
        ResultRow row = GridRows.of(s).get(0);
        Precision p = Precision.parse(row.text(ResultRow.Text.PRECISION));
        for (Resource r : Resource.values()) {
            Evaluator full = new Evaluator(s, ModelCatalog.bundled(), HW, sys -> Perturbation.improve(r, sys, p));
            double[] best = {Double.NaN};
            full.evaluate(row.pointIndex(), x -> best[0] = x.metric(Metric.TOKENS_PER_S)); // max tokens/s objective
            double fullSearch = best[0] / row.metric(Metric.TOKENS_PER_S) - 1;
            assertEquals(fullSearch, row.metric(r.searched()), 1e-12 + 1e-9 * Math.abs(fullSearch), r.id());
        }
    }

    @Test
    void aComputeBoundTrainingPointRanksFlopsFirst() {
        ResultRow row = GridRows.of(training("parallelism: {tp: [8], pp: [8], micro_batch: [1]}", true)).get(0);
        assertEquals(Resource.FLOPS, fastest(row), summary(row));
        assertEquals("flops", row.text(ResultRow.Text.INVEST_FIRST), summary(row));
        assertTrue(row.metric(Resource.FLOPS.searched()) > 0.02, summary(row));
    }

    @Test
    void aBatchOneDecodePointRanksHbmBandwidthFirst() {
        ResultRow row = GridRows.of(decode(true)).get(0);
        assertEquals(Resource.HBM_BW, fastest(row), summary(row));
        assertEquals("hbm_bw", row.text(ResultRow.Text.INVEST_FIRST), summary(row));
        assertTrue(row.metric(Resource.HBM_BW.tpot()) > 0.05, summary(row));
        assertEquals(0, row.metric(Resource.HBM_CAPACITY.searched()), 1e-12,
                "capacity buys a 1-request decode nothing");
    }

    @Test
    void energyComponentsAddUpToTheTotal() {
        List<ResultRow> rows = new ArrayList<>(GridRows.of(training("parallelism: {tp: [4, 8], pp: [8]}", false)));
        rows.addAll(GridRows.of(decode(false)));
        rows.addAll(GridRows.of(spec("name: i", "models: [llama3-70b]",
                "phases: [{phase: inference, batch: [1, 64], input_tokens: [1024], output_tokens: [256]}]",
                "hardware: {presets: [h100-sxm, b200]}", "cluster: {gpu_count: [16]}",
                "parallelism: {tp: [8, 16], pp: [1]}")));
        assertTrue(rows.size() >= 6);
        Metric[] parts = {Metric.ENERGY_COMPUTE_PER_TOKEN_J, Metric.ENERGY_DRAM_PER_TOKEN_J,
            Metric.ENERGY_SCALE_UP_PER_TOKEN_J, Metric.ENERGY_SCALE_OUT_PER_TOKEN_J, Metric.ENERGY_STATIC_PER_TOKEN_J};
        boolean scaleOutSeen = false;
        for (ResultRow r : rows) {
            assertEquals(PointStatus.OK, r.status(), r.detail());
            double sum = 0;
            for (Metric m : parts) {
                assertTrue(r.metric(m) >= 0, m + " " + r.metric(m));
                sum += r.metric(m);
            }
            assertEquals(r.metric(Metric.ENERGY_PER_TOKEN_J), sum, 1e-9 * sum, "components add up");
            assertTrue(r.metric(Metric.ENERGY_COMPUTE_PER_TOKEN_J) > 0
                    && r.metric(Metric.ENERGY_STATIC_PER_TOKEN_J) > 0);
            double power = r.metric(Metric.POWER_OF_TDP_FRACTION);
            assertTrue(power > 0.25 - 1e-9 && power <= 1 + 1e-9, "static power is 25% of TDP, the cap 100%: " + power);
            scaleOutSeen |= r.metric(Metric.ENERGY_SCALE_OUT_PER_TOKEN_J) > 0;
            assertTrue(Double.isNaN(r.metric(Resource.FLOPS.fixedPlan())), "sensitivities are off by default");
            assertEquals(null, r.text(ResultRow.Text.INVEST_FIRST));
        }
        assertTrue(scaleOutSeen, "a tp 16 replica spans two 8-GPU domains, training's DP crosses them");
    }

    @Test
    void pricesComeFromTheCataloguesAndLatencyIsUnpriced() {
        SweepSpec s = decode(true);
        ResultRow row = GridRows.of(s).get(0);
        for (Resource r : List.of(Resource.FLOPS, Resource.HBM_BW, Resource.HBM_CAPACITY, Resource.SCALE_UP_BW,
                Resource.SCALE_OUT_BW)) {
            assertFalse(Double.isNaN(row.metric(r.perKiloUsd())), r.id() + " is priced");
        }
        assertTrue(Double.isNaN(row.metric(Resource.LATENCY.perKiloUsd())));
        assertTrue(Double.isNaN(row.metric(Resource.LAUNCH.perKiloUsd())));
        assertTrue(Double.isNaN(row.metric(Resource.HBM_CAPACITY.perKiloWatt())), "no standby power is catalogued");
    }

    private static Resource fastest(ResultRow row) {
        Resource best = null;
        for (Resource r : Resource.values()) {
            if (best == null || row.metric(r.searched()) > row.metric(best.searched())) {
                best = r;
            }
        }
        return best;
    }

    private static String summary(ResultRow row) {
        StringBuilder sb = new StringBuilder(String.valueOf(row.plan()));
        for (Resource r : Resource.values()) {
            sb.append(String.format(" %s=%.4f/%.4f", r.id(), row.metric(r.fixedPlan()), row.metric(r.searched())));
        }
        return sb.toString();
    }
}
