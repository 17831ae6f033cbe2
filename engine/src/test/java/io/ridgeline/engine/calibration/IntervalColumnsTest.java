package io.ridgeline.engine.calibration;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interval columns of sweep rows: the bundled intervals at the sweep's coverage, per phase, never on memory. */
class IntervalColumnsTest {
    private static SweepSpec spec(String extra) {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("t.yaml", String.join("\n",
                "name: t", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: 2048, global_batch: 64},"
                        + " {phase: inference, batch: 8, input_tokens: 512, output_tokens: 128, software: trt-llm@1.0}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [8]}", "parallelism: {tp: [1, 2, 8]}",
                extra, ""));
    }

    @Test
    void rowsCarryTheBundledIntervalsOfTheirGroupAtTheSweepsCoverage() {
        List<ResultRow> at80 = rows(spec(""));
        List<ResultRow> at95 = rows(spec("output: {interval_coverage: 0.95}"));
        IntervalModel m = IntervalModel.bundled();
        for (int i = 0; i < at80.size(); i++) {
            ResultRow r = at80.get(i);
            boolean inference = r.workload().inference();
            Metric[] outputs = inference ? new Metric[]{Metric.TTFT_S, Metric.TPOT_S, Metric.E2E_LATENCY_S,
                Metric.OUTPUT_TOKENS_PER_S_PER_GPU, Metric.TOKENS_PER_S}
                    : new Metric[]{Metric.STEP_TIME_S, Metric.TOKENS_PER_S};
            for (Metric o : outputs) {
                double v = r.metric(o);
                assertTrue(r.metric(o.low()) < v && v < r.metric(o.high()), o + " of " + r.workload());
                // a wider coverage widens the interval around the same prediction
                assertTrue(at95.get(i).metric(o.low()) < r.metric(o.low()), o.toString());
                assertTrue(at95.get(i).metric(o.high()) > r.metric(o.high()), o.toString());
            }
            assertTrue(Double.isNaN(r.metric(inference ? Metric.STEP_TIME_S_LO : Metric.TTFT_S_LO)));
            assertEquals(inference ? "trt-llm|hopper" : "megatron-bridge|hopper", r.text(ResultRow.Text.INTERVAL_GROUP));
            if (!inference) {
                int g = m.group(IntervalOutput.STEP_TIME, "megatron-bridge@25.11", "hopper");
                assertEquals(m.timeHigh(g, r.metric(Metric.STEP_TIME_S)), r.metric(Metric.STEP_TIME_S_HI), 0);
            }
        }
        assertNull(Metric.HBM_BYTES.low(), "memory has no interval");
    }

    @Test
    void anotherCoverageScalesEachHalfWidthByTheTQuantiles() {
        IntervalModel m = IntervalModel.bundled();
        assertSame(m, m.atCoverage(m.coverage()));
        IntervalModel wide = m.atCoverage(0.9);
        for (int g = 0; g < m.groups().size(); g++) {
            IntervalModel.Group a = m.groups().get(g);
            IntervalModel.Group b = wide.groups().get(g);
            TDistribution t = new TDistribution(null, a.sources() - 2);
            double ratio = t.inverseCumulativeProbability(0.95) / t.inverseCumulativeProbability(0.9);
            assertEquals((a.logRatioHigh() - a.logRatioLow()) * ratio, b.logRatioHigh() - b.logRatioLow(), 1e-12);
            assertEquals(a.logRatioHigh() + a.logRatioLow(), b.logRatioHigh() + b.logRatioLow(), 1e-12);
        }
    }

    private static List<ResultRow> rows(SweepSpec s) {
        var ev = SweepCalibration.evaluator(s);
        List<ResultRow> out = new java.util.ArrayList<>();
        for (long i = 0; i < ev.grid().size(); i++) {
            for (ResultRow r : ev.evaluate(i)) {
                if (r.status() == io.ridgeline.engine.evaluation.PointStatus.OK) {
                    out.add(r);
                }
            }
        }
        assertEquals(2, out.size(), "one training and one inference point");
        return out;
    }
}
