package io.ridgeline.engine.calibration;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalModelTest {
    /** n residuals 0.01, 0.02, ... spread over the given sources in turn. */
    private static List<HeldOutResidual> residuals(IntervalOutput o, String stack, String family, int n,
                                                   String... sources) {
        List<HeldOutResidual> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new HeldOutResidual(o, stack, family, sources[i % sources.length], i / 100.0));
        }
        return out;
    }

    @Test
    void boundsAreTheSplitConformalOrderStatistics() {
        // n = 19, coverage 0.8: the floor(20 x 0.1) = 2nd and ceil(20 x 0.9) = 18th smallest.
        IntervalModel m = IntervalModel.fromResiduals(residuals(IntervalOutput.STEP_TIME, "s", "ampere", 19, "a", "b"),
                0.8);
        int g = m.group(IntervalOutput.STEP_TIME, "s", "ampere");
        IntervalModel.Group x = m.groups().get(g);
        assertEquals(0.02, x.logRatioLow(), 1e-12);
        assertEquals(0.18, x.logRatioHigh(), 1e-12);
        // ln(t / T) in [0.02, 0.18]: the true time is below the prediction.
        assertEquals(10 * Math.exp(-0.18), m.timeLow(g, 10), 1e-12);
        assertEquals(10 * Math.exp(-0.02), m.timeHigh(g, 10), 1e-12);
        // A rate is the inverse of a time: the same run's tokens/s interval is the time interval inverted.
        assertEquals(1 / m.timeHigh(g, 10), m.rateLow(g, 1 / 10.0), 1e-12);
        assertEquals(1 / m.timeLow(g, 10), m.rateHigh(g, 1 / 10.0), 1e-12);
    }

    @Test
    void pointsFallBackToCoarserGroupsAndOtherwiseHaveNoInterval() {
        List<HeldOutResidual> rs = new ArrayList<>(residuals(IntervalOutput.STEP_TIME, "s", "ampere", 30, "a", "b"));
        rs.addAll(residuals(IntervalOutput.STEP_TIME, "t", "ampere", 5, "c", "d"));
        rs.addAll(residuals(IntervalOutput.STEP_TIME, "u", "hopper", 12, "e"));
        rs.addAll(residuals(IntervalOutput.E2E_LATENCY, "v", "ampere", 12, "f", "g"));
        IntervalModel m = IntervalModel.fromResiduals(rs, 0.8);
        assertEquals("s", group(m, IntervalOutput.STEP_TIME, "s", "ampere").stack());
        // t has 5 residuals: its chips' family group.
        assertEquals(IntervalModel.ANY, group(m, IntervalOutput.STEP_TIME, "t", "ampere").stack());
        assertEquals("ampere", group(m, IntervalOutput.STEP_TIME, "t", "ampere").family());
        // u has 12 residuals from one source: not a group of its own (MIN_SOURCES), nor is hopper; the pooled one is.
        assertEquals(IntervalModel.ANY, group(m, IntervalOutput.STEP_TIME, "u", "hopper").family());
        // TPOT has no residuals: whole-request latency stands in.
        assertEquals(IntervalOutput.E2E_LATENCY, group(m, IntervalOutput.TPOT, "", "ampere").output());
        // TTFT has none and no stand-in: no interval, NaN ends.
        assertEquals(-1, m.group(IntervalOutput.TTFT, "", "ampere"));
        assertTrue(Double.isNaN(m.timeLow(-1, 1.0)));
    }

    private static IntervalModel.Group group(IntervalModel m, IntervalOutput o, String stack, String family) {
        int g = m.group(o, stack, family);
        assertTrue(g >= 0, "no group for " + o + " " + stack + " " + family);
        return m.groups().get(g);
    }

    @Test
    void heldOutCoverageNeverUsesASourcesOwnResiduals() {
        // Source b is shifted far from a and c: intervals from a and c alone cannot cover it.
        List<HeldOutResidual> rs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rs.add(new HeldOutResidual(IntervalOutput.STEP_TIME, "s", "ampere", i % 2 == 0 ? "a" : "c",
                    (i - 20) / 1000.0));
            rs.add(new HeldOutResidual(IntervalOutput.STEP_TIME, "s", "ampere", "b", 1.0 + i / 1000.0));
        }
        IntervalModel.Coverage c = IntervalModel.heldOutCoverage(rs, rs, 0.8);
        assertEquals(0.0, c.perSource().get("b")[1], 1e-12);
        assertTrue(c.fraction() < 0.5, "coverage " + c.fraction());
    }

    @Test
    void theBundledIntervalsLoad() {
        IntervalModel m = IntervalModel.bundled();
        assertEquals(0.8, m.coverage(), 1e-12);
        int g = m.group(IntervalOutput.STEP_TIME, "", "ampere");
        assertTrue(g >= 0);
        assertTrue(m.timeLow(g, 1.0) <= 1.0 && m.timeHigh(g, 1.0) >= 1.0, "the interval holds the prediction");
    }
}
