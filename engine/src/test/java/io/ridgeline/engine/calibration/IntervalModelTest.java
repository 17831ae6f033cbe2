package io.ridgeline.engine.calibration;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalModelTest {
    private static HeldOutResidual r(IntervalOutput o, String stack, String family, String source, double v) {
        return new HeldOutResidual(o, stack, family, source, v);
    }

    /** n residuals 0.01, 0.02, ... spread over the given sources in turn. */
    private static List<HeldOutResidual> residuals(IntervalOutput o, String stack, String family, int n,
                                                   String... sources) {
        List<HeldOutResidual> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(r(o, stack, family, sources[i % sources.length], i / 100.0));
        }
        return out;
    }

    @Test
    void boundsAreTheRandomEffectsPredictionIntervalOverSources() {
        // Source means 0.1, 0.2, 0.4, each source's variance 0.02 (two residuals 0.2 apart).
        List<HeldOutResidual> rs = List.of(
                r(IntervalOutput.STEP_TIME, "s@1", "ampere", "a", 0.0), r(IntervalOutput.STEP_TIME, "s@1", "ampere", "a", 0.2),
                r(IntervalOutput.STEP_TIME, "s@2", "ampere", "b", 0.1), r(IntervalOutput.STEP_TIME, "s@2", "ampere", "b", 0.3),
                r(IntervalOutput.STEP_TIME, "s@2", "ampere", "c", 0.3), r(IntervalOutput.STEP_TIME, "s@2", "ampere", "c", 0.5));
        IntervalModel m = IntervalModel.fromResiduals(rs, 0.8);
        int g = m.group(IntervalOutput.STEP_TIME, "s@3", "ampere");
        IntervalModel.Group x = m.groups().get(g);
        // Every version of stack s is one group.
        assertEquals("s", x.stack());
        assertEquals(3, x.sources());
        double center = 0.7 / 3;
        double meansVariance = (Math.pow(0.1 - center, 2) + Math.pow(0.2 - center, 2) + Math.pow(0.4 - center, 2)) / 2;
        double between = meansVariance - 0.02 / 2;
        double within = 0.02;
        // t with k - 2 = 1 degree of freedom at 0.9: tan(0.4 pi) = 3.0777.
        double half = Math.tan(0.4 * Math.PI) * Math.sqrt(between + meansVariance / 3 + within);
        assertEquals(center, x.logRatioCenter(), 1e-12);
        assertEquals(Math.sqrt(between), x.betweenSourceSd(), 1e-12);
        assertEquals(Math.sqrt(within), x.withinSourceSd(), 1e-12);
        assertEquals(center - half, x.logRatioLow(), 1e-9);
        assertEquals(center + half, x.logRatioHigh(), 1e-9);
        // ln(t / T) in [lo, hi]: the true time is in [t e^-hi, t e^-lo].
        assertEquals(10 * Math.exp(-x.logRatioHigh()), m.timeLow(g, 10), 1e-12);
        assertEquals(10 * Math.exp(-x.logRatioLow()), m.timeHigh(g, 10), 1e-12);
        // A rate is the inverse of a time: the same run's tokens/s interval is the time interval inverted.
        assertEquals(1 / m.timeHigh(g, 10), m.rateLow(g, 1 / 10.0), 1e-12);
        assertEquals(1 / m.timeLow(g, 10), m.rateHigh(g, 1 / 10.0), 1e-12);
    }

    @Test
    void aSourceCountsOnceHoweverManyCasesItHas() {
        // Two tight sources agree; a third is offset by 0.5 with 1,000 cases. Pooled per case, the 1,000 would be the
        // distribution; per source, the offset is one draw of three and the interval spans all three means.
        List<HeldOutResidual> rs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", "a", (i - 5) / 1000.0));
            rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", "b", (i - 5) / 1000.0));
        }
        for (int i = 0; i < 1000; i++) {
            rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", "c", 0.5 + (i - 500) / 100000.0));
        }
        IntervalModel.Group x = group(IntervalModel.fromResiduals(rs, 0.8), IntervalOutput.STEP_TIME, "s", "ampere");
        assertEquals(0.5 / 3, x.logRatioCenter(), 1e-3);
        assertTrue(x.logRatioLow() < 0 && x.logRatioHigh() > 0.5, x.toString());
    }

    @Test
    void pointsFallBackToCoarserGroupsAndOtherwiseHaveNoInterval() {
        List<HeldOutResidual> rs = new ArrayList<>(residuals(IntervalOutput.STEP_TIME, "s", "ampere", 30, "a", "b", "c"));
        rs.addAll(residuals(IntervalOutput.STEP_TIME, "s", "hopper", 6, "d", "e"));
        rs.addAll(residuals(IntervalOutput.STEP_TIME, "t", "ampere", 12, "f", "g"));
        rs.addAll(residuals(IntervalOutput.TTFT, "v", "hopper", 12, "h", "i"));
        rs.addAll(residuals(IntervalOutput.OUTPUT_THROUGHPUT, "v", "hopper", 12, "j"));
        IntervalModel m = IntervalModel.fromResiduals(rs, 0.8);
        assertEquals("ampere", group(m, IntervalOutput.STEP_TIME, "s", "ampere").family());
        // s on hopper has two sources: stack s on any family (five sources).
        IntervalModel.Group sHopper = group(m, IntervalOutput.STEP_TIME, "s", "hopper");
        assertEquals("s", sHopper.stack());
        assertEquals(IntervalModel.ANY, sHopper.family());
        assertEquals(5, sHopper.sources());
        // t has two sources: the output pooled over stacks and families (seven sources), never "ampere" alone.
        IntervalModel.Group t = group(m, IntervalOutput.STEP_TIME, "t", "ampere");
        assertEquals(IntervalModel.ANY, t.stack());
        assertEquals(IntervalModel.ANY, t.family());
        assertEquals(7, t.sources());
        // TTFT and throughput have two and one sources: the inference phase pooled (three).
        IntervalModel.Group ttft = group(m, IntervalOutput.TTFT, "v", "hopper");
        assertEquals(IntervalOutput.INFERENCE, ttft.output());
        assertEquals(3, ttft.sources());
        // TPOT has none and its stand-in (whole-request latency) none: the phase too.
        assertEquals(IntervalOutput.INFERENCE, group(m, IntervalOutput.TPOT, "", "ampere").output());
        // GEMM has no residuals and no pool: no interval, NaN ends.
        assertEquals(-1, m.group(IntervalOutput.GEMM, "", "ampere"));
        assertTrue(Double.isNaN(m.timeLow(-1, 1.0)));
    }

    private static IntervalModel.Group group(IntervalModel m, IntervalOutput o, String stack, String family) {
        int g = m.group(o, stack, family);
        assertTrue(g >= 0, "no group for " + o + " " + stack + " " + family);
        return m.groups().get(g);
    }

    @Test
    void heldOutCoverageNeverUsesASourcesOwnResiduals() {
        // Source b is shifted far from a, c and d: intervals from those alone cannot cover it.
        List<HeldOutResidual> rs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", i % 3 == 0 ? "a" : i % 3 == 1 ? "c" : "d",
                    (i - 20) / 1000.0));
            rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", "b", 5.0 + i / 1000.0));
        }
        IntervalCoverage c = IntervalCoverage.heldOut(rs, rs, 0.8);
        assertEquals(0.0, c.perSource().get("b")[1], 1e-12);
        assertTrue(c.fraction() < 0.6, "coverage " + c.fraction());
        assertEquals(80, (int) c.perPhase().get("training")[0]);
    }

    /**
     * Where the model holds (source offsets N(0, 0.15^2), cases N(0, 0.10^2) around them), 80% intervals estimated
     * without a source cover about 80% of its cases: the method is calibrated, not merely wide.
     */
    @Test
    void randomEffectsIntervalsAreCalibratedOnSourcesHeldOut() {
        List<HeldOutResidual> rs = sources(new Random(11), 40, "source", 0.15, 0.10, 5, 60);
        // Per source (each source one draw of its offset), as the method treats them.
        IntervalCoverage c = IntervalCoverage.heldOut(rs, rs, 0.8);
        double perSource = c.perSource().values().stream().mapToDouble(v -> v[1]).average().orElseThrow();
        assertTrue(perSource > 0.72 && perSource < 0.88, "mean per-source coverage " + perSource);
    }

    @Test
    void aPredictionsOwnFitVarianceWidensItsInterval() {
        List<HeldOutResidual> rs = new ArrayList<>(residuals(IntervalOutput.STEP_TIME, "s", "ampere", 30, "a", "b",
                "c", "d"));
        IntervalModel m = IntervalModel.fromResiduals(rs, 0.8);
        int g = m.group(IntervalOutput.STEP_TIME, "s", "ampere");
        IntervalModel.Group x = m.groups().get(g);
        double half = (x.logRatioHigh() - x.logRatioLow()) / 2;
        // center +- t(k-2) sqrt(s^2 + v): half^2 grows by t^2 v; t(2 df, 0.9) = 1.8856.
        double t = 1.885618083;
        assertEquals(half, m.halfWidth(g, 0), 1e-12);
        assertEquals(Math.sqrt(half * half + t * t * 0.04), m.halfWidth(g, 0.04), 1e-6);
        double outside = x.logRatioHigh() + 0.1;
        assertFalse(m.covers(g, outside));
        assertFalse(m.covers(g, outside, 0));
        assertTrue(m.covers(g, outside, 0.04), "a prediction resting on an unidentified constant is less certain");
    }

    /**
     * Sources whose held-out predictions rest on a constant their folds cannot identify: their error is the
     * constant's (uniform over its prior range, times each case's sensitivity) on top of the model's. The group's
     * intervals, estimated from the well-identified sources, miss them; with each case's fit variance they hold
     * about the nominal share.
     */
    @Test
    void unidentifiedConstantsCarryTheirPriorIntoTheInterval() {
        Random random = new Random(7);
        List<HeldOutResidual> rs = sources(random, 30, "identified", 0.05, 0.08, 20, 0);
        List<HeldOutResidual> blind = new ArrayList<>();
        List<HeldOutResidual> blindWithout = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            // The constant's error in ln units: uniform on [-0.4, 0.4] per source (one true value per cluster).
            double theta = 0.8 * (random.nextDouble() - 0.5);
            for (int i = 0; i < 20; i++) {
                double sensitivity = random.nextDouble();
                double v = 0.05 * random.nextGaussian() + sensitivity * theta + 0.08 * random.nextGaussian();
                // Variance of sensitivity x U[-0.4, 0.4]: sensitivity^2 0.8^2 / 12.
                double fitVariance = sensitivity * sensitivity * 0.64 / 12;
                blind.add(new HeldOutResidual(IntervalOutput.STEP_TIME, "s", "ampere", "blind " + s, v, fitVariance));
                blindWithout.add(r(IntervalOutput.STEP_TIME, "s", "ampere", "blind " + s, v));
            }
        }
        double with = blindCoverage(rs, blind);
        double without = blindCoverage(rs, blindWithout);
        assertTrue(with > 0.75 && with < 0.92, "coverage with the fit variance " + with);
        assertTrue(without < with - 0.1, "coverage without " + without + ", with " + with);
    }

    /**
     * Step-time residuals of {@code count} sources: each source's offset N(0, offsetSd^2), its cases N(0, caseSd^2)
     * around it, minCases plus up to extraCases - 1 cases per source.
     */
    private static List<HeldOutResidual> sources(Random random, int count, String name, double offsetSd,
                                                 double caseSd, int minCases, int extraCases) {
        List<HeldOutResidual> rs = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            double offset = offsetSd * random.nextGaussian();
            int cases = minCases + (extraCases > 0 ? random.nextInt(extraCases) : 0);
            for (int i = 0; i < cases; i++) {
                double v = offset + caseSd * random.nextGaussian();
                rs.add(r(IntervalOutput.STEP_TIME, "s", "ampere", name + " " + s, v));
            }
        }
        return rs;
    }

    /** Coverage of the blind sources' cases by intervals from the identified sources only. */
    private static double blindCoverage(List<HeldOutResidual> identified, List<HeldOutResidual> blind) {
        List<HeldOutResidual> all = new ArrayList<>(identified);
        all.addAll(blind);
        IntervalCoverage c = IntervalCoverage.heldOut(identified, all, 0.8);
        double inside = 0;
        int cases = 0;
        for (var e : c.perSource().entrySet()) {
            if (e.getKey().startsWith("blind")) {
                inside += e.getValue()[0] * e.getValue()[1];
                cases += (int) e.getValue()[0];
            }
        }
        return inside / cases;
    }

    @Test
    void theBundledIntervalsLoad() {
        IntervalModel m = IntervalModel.bundled();
        assertEquals(0.8, m.coverage(), 1e-12);
        int g = m.group(IntervalOutput.STEP_TIME, "", "ampere");
        assertTrue(g >= 0);
        assertTrue(m.timeLow(g, 1.0) <= 1.0 && m.timeHigh(g, 1.0) >= 1.0, "the interval holds the prediction");
        // A stack id and its framework family name the same groups.
        assertEquals(m.group(IntervalOutput.OUTPUT_THROUGHPUT, "trt-llm@0.8.0", "hopper"),
                m.group(IntervalOutput.OUTPUT_THROUGHPUT, "trt-llm", "hopper"));
    }
}
