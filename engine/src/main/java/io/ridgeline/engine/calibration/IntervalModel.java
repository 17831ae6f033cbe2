package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CsvTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prediction intervals from cross-validated residuals. For each group of cases (output x stack x chip family, and the
 * coarser output x family and output alone), the interval of the time ratio predicted/measured is the split-conformal
 * quantile pair of the group's held-out residuals (Lei et al. 2018, "Distribution-free predictive inference for
 * regression", sec. 2.2; with leave-one-source-out residuals as in Barber et al. 2021, "Predictive inference with the
 * jackknife+"): with n residuals sorted, the ceil((n+1)(1+c)/2)-th and floor((n+1)(1-c)/2)-th for coverage c. A point
 * takes the most specific group with at least {@link #MIN_RESIDUALS} residuals from at least {@link #MIN_SOURCES}
 * sources (one source's residuals say nothing of how another lab's runs differ, which is what a user's cluster is);
 * an output with none has no interval (NaN), never a made-up one. Memory has no interval: the dev files hold no measured peak memory (the Korthikanti
 * Figure 1 rows are the paper's formula, validation/README.md).
 *
 * <p>Hot path: {@link #group} is resolved once per point configuration (on the driver, or cached per partition);
 * {@link #timeLow} and friends are two multiplications on primitive arrays, no allocation.
 */
public final class IntervalModel {
    public static final double DEFAULT_COVERAGE = 0.80;
    /** Fewest residuals a group needs: at 80% coverage the conformal bounds are finite from n = 9. */
    public static final int MIN_RESIDUALS = 10;
    /** Fewest sources a group's residuals must come from. */
    public static final int MIN_SOURCES = 2;
    /** The pooled level of a group key. */
    public static final String ANY = "*";
    static final String RESOURCE = "/catalog/intervals.csv";
    private static volatile IntervalModel bundled;

    /**
     * One group's interval of ln(predicted time / measured time).
     *
     * @param stack  a stack id, or {@link #ANY}
     * @param family a chip family, or {@link #ANY}
     */
    public record Group(IntervalOutput output, String stack, String family, int residuals, int sources,
                        double logRatioLow, double logRatioHigh) {
        String key() {
            return key(output, stack, family);
        }

        static String key(IntervalOutput o, String stack, String family) {
            return o.id() + "|" + stack + "|" + family;
        }
    }

    private final double coverage;
    private final List<Group> groups;
    private final Map<String, Integer> index = new HashMap<>();
    private final double[] timeLowFactor;
    private final double[] timeHighFactor;

    public IntervalModel(double coverage, List<Group> groups) {
        if (!(coverage > 0 && coverage < 1)) {
            throw new IllegalArgumentException("coverage must be in (0, 1): " + coverage);
        }
        this.coverage = coverage;
        this.groups = List.copyOf(groups);
        this.timeLowFactor = new double[groups.size()];
        this.timeHighFactor = new double[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            Group x = groups.get(g);
            index.put(x.key(), g);
            // ln(t / T) in [lo, hi]  <=>  T in [t e^-hi, t e^-lo]
            timeLowFactor[g] = Math.exp(-x.logRatioHigh());
            timeHighFactor[g] = Math.exp(-x.logRatioLow());
        }
    }

    /** The intervals shipped with the engine (catalog/intervals.csv, from the recipe's cross-validation). */
    public static IntervalModel bundled() {
        IntervalModel m = bundled;
        if (m == null) {
            m = read(CsvTable.readResource(RESOURCE));
            bundled = m;
        }
        return m;
    }

    static IntervalModel read(CsvTable t) {
        t.requireColumns("output", "stack", "family", "residuals", "sources", "coverage", "log_ratio_low",
                "log_ratio_high");
        List<Group> groups = new ArrayList<>();
        double coverage = DEFAULT_COVERAGE;
        for (CsvTable.Row r : t.rows()) {
            IntervalOutput o = IntervalOutput.parse(r.string("output"));
            if (o == null) {
                throw r.error("output", "an interval output id", "'" + r.raw("output") + "'");
            }
            coverage = r.positive("coverage");
            groups.add(new Group(o, r.string("stack"), r.string("family"), (int) r.integer("residuals"),
                    (int) r.integer("sources"), r.number("log_ratio_low"), r.number("log_ratio_high")));
        }
        return new IntervalModel(coverage, groups);
    }

    /** Groups from held-out residuals: every key with at least {@link #MIN_RESIDUALS} and finite bounds. */
    public static IntervalModel fromResiduals(List<HeldOutResidual> residuals, double coverage) {
        Map<String, List<HeldOutResidual>> byKey = new LinkedHashMap<>();
        for (HeldOutResidual r : residuals) {
            if (!r.stack().isEmpty()) {
                byKey.computeIfAbsent(Group.key(r.output(), r.stack(), r.family()), k -> new ArrayList<>()).add(r);
            }
            byKey.computeIfAbsent(Group.key(r.output(), ANY, r.family()), k -> new ArrayList<>()).add(r);
            byKey.computeIfAbsent(Group.key(r.output(), ANY, ANY), k -> new ArrayList<>()).add(r);
        }
        List<Group> groups = new ArrayList<>();
        List<String> keys = new ArrayList<>(byKey.keySet());
        Collections.sort(keys);
        for (String key : keys) {
            List<HeldOutResidual> rs = byKey.get(key);
            double[] v = rs.stream().mapToDouble(HeldOutResidual::logTimeRatio).sorted().toArray();
            int n = v.length;
            // 1e-9 absorbs rounding: (1 - 0.8) / 2 is 0.09999999999999998 in binary.
            int hi = (int) Math.ceil((n + 1) * (1 + coverage) / 2 - 1e-9);
            int lo = (int) Math.floor((n + 1) * (1 - coverage) / 2 + 1e-9);
            Set<String> sources = new HashSet<>();
            rs.forEach(r -> sources.add(r.source()));
            if (n < MIN_RESIDUALS || sources.size() < MIN_SOURCES || hi > n || lo < 1) {
                continue;
            }
            String[] parts = key.split("\\|", -1);
            groups.add(new Group(IntervalOutput.parse(parts[0]), parts[1], parts[2], n, sources.size(), v[lo - 1],
                    v[hi - 1]));
        }
        return new IntervalModel(coverage, groups);
    }

    public double coverage() {
        return coverage;
    }

    public List<Group> groups() {
        return groups;
    }

    /**
     * The group an output of a point takes: output x stack x family, else output x family, else the output alone,
     * else the output's stand-in ({@link IntervalOutput#fallback}); -1 when none has enough residuals.
     *
     * @param stack the point's stack id ("" or null when it has none)
     */
    public int group(IntervalOutput output, String stack, String family) {
        for (IntervalOutput o = output; o != null; o = o.fallback()) {
            Integer g = stack == null || stack.isEmpty() ? null : index.get(Group.key(o, stack, family));
            if (g == null) {
                g = index.get(Group.key(o, ANY, family));
            }
            if (g == null) {
                g = index.get(Group.key(o, ANY, ANY));
            }
            if (g != null) {
                return g;
            }
        }
        return -1;
    }

    /** Lower end for a predicted time (seconds); NaN without a group. */
    public double timeLow(int group, double seconds) {
        return group < 0 ? Double.NaN : seconds * timeLowFactor[group];
    }

    public double timeHigh(int group, double seconds) {
        return group < 0 ? Double.NaN : seconds * timeHighFactor[group];
    }

    /** Lower end for a predicted rate (tokens/s, FLOP/s): the inverse of the time interval. */
    public double rateLow(int group, double rate) {
        return group < 0 ? Double.NaN : rate / timeHighFactor[group];
    }

    public double rateHigh(int group, double rate) {
        return group < 0 ? Double.NaN : rate / timeLowFactor[group];
    }

    /** Share of held-out cases inside their interval, overall and per source. */
    public record Coverage(double fraction, int counted, int withoutInterval, Map<String, double[]> perSource) {
    }

    /**
     * Coverage on sources held out of the interval estimate: for each source, intervals built from every other
     * source's {@code intervalResiduals} only, applied to this source's {@code testResiduals}. {@code perSource} maps
     * a source to {cases counted, fraction inside}. Cases whose output has no group with enough residuals from other
     * sources are counted apart ({@code withoutInterval}), not as inside.
     */
    public static Coverage heldOutCoverage(List<HeldOutResidual> intervalResiduals,
                                           List<HeldOutResidual> testResiduals, double coverage) {
        Map<String, List<HeldOutResidual>> bySource = new LinkedHashMap<>();
        for (HeldOutResidual r : testResiduals) {
            bySource.computeIfAbsent(r.source(), s -> new ArrayList<>()).add(r);
        }
        int counted = 0;
        int inside = 0;
        int without = 0;
        Map<String, double[]> perSource = new LinkedHashMap<>();
        for (Map.Entry<String, List<HeldOutResidual>> e : bySource.entrySet()) {
            List<HeldOutResidual> others = new ArrayList<>(intervalResiduals.size());
            for (HeldOutResidual r : intervalResiduals) {
                if (!r.source().equals(e.getKey())) {
                    others.add(r);
                }
            }
            IntervalModel m = fromResiduals(others, coverage);
            int n = 0;
            int in = 0;
            for (HeldOutResidual r : e.getValue()) {
                int g = m.group(r.output(), r.stack(), r.family());
                if (g < 0) {
                    without++;
                    continue;
                }
                Group x = m.groups.get(g);
                n++;
                in += r.logTimeRatio() >= x.logRatioLow() && r.logTimeRatio() <= x.logRatioHigh() ? 1 : 0;
            }
            counted += n;
            inside += in;
            perSource.put(e.getKey(), new double[]{n, n == 0 ? Double.NaN : (double) in / n});
        }
        return new Coverage(counted == 0 ? Double.NaN : (double) inside / counted, counted, without, perSource);
    }

    @Override
    public String toString() {
        return "IntervalModel" + Arrays.toString(groups.toArray());
    }
}
