package io.ridgeline.engine.calibration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How often intervals hold cases of a source they were not estimated from: for each source, the intervals are built
 * from every other source's residuals only ({@link IntervalModel#fromResiduals}) and applied to this source's cases.
 * Cases whose output has no group with an interval from the other sources are counted apart, never as inside.
 *
 * @param fraction        share of counted cases inside their interval
 * @param withoutInterval cases whose output had no interval without their source
 * @param perSource       source to {cases counted, fraction inside}, in first-appearance order
 * @param perPhase        case phase (training, inference, gemm) to {cases counted, fraction inside}
 */
public record IntervalCoverage(double fraction, int counted, int withoutInterval, Map<String, double[]> perSource,
                               Map<String, double[]> perPhase) {

    /**
     * @param intervalResiduals residuals the intervals are estimated from (leave-one-source-out ones)
     * @param testResiduals     residuals scored against them, one per case
     */
    public static IntervalCoverage heldOut(List<HeldOutResidual> intervalResiduals,
                                           List<HeldOutResidual> testResiduals, double coverage) {
        Map<String, List<HeldOutResidual>> bySource = new LinkedHashMap<>();
        for (HeldOutResidual r : testResiduals) {
            bySource.computeIfAbsent(r.source(), s -> new ArrayList<>()).add(r);
        }
        int counted = 0;
        int inside = 0;
        int without = 0;
        Map<String, double[]> perSource = new LinkedHashMap<>();
        // phase -> {counted, inside}
        Map<String, int[]> phases = new LinkedHashMap<>();
        for (Map.Entry<String, List<HeldOutResidual>> e : bySource.entrySet()) {
            List<HeldOutResidual> others = new ArrayList<>(intervalResiduals.size());
            for (HeldOutResidual r : intervalResiduals) {
                if (!r.source().equals(e.getKey())) {
                    others.add(r);
                }
            }
            IntervalModel m = IntervalModel.fromResiduals(others, coverage);
            int n = 0;
            int in = 0;
            for (HeldOutResidual r : e.getValue()) {
                int g = m.group(r.output(), r.stack(), r.family());
                if (g < 0) {
                    without++;
                    continue;
                }
                boolean covered = m.covers(g, r.logTimeRatio(), r.fitVariance());
                n++;
                in += covered ? 1 : 0;
                int[] p = phases.computeIfAbsent(r.output().phase(), x -> new int[2]);
                p[0]++;
                p[1] += covered ? 1 : 0;
            }
            counted += n;
            inside += in;
            perSource.put(e.getKey(), new double[]{n, n == 0 ? Double.NaN : (double) in / n});
        }
        Map<String, double[]> perPhase = new LinkedHashMap<>();
        phases.forEach((phase, p) -> perPhase.put(phase, new double[]{p[0], (double) p[1] / p[0]}));
        return new IntervalCoverage(counted == 0 ? Double.NaN : (double) inside / counted, counted, without,
                perSource, perPhase);
    }
}
