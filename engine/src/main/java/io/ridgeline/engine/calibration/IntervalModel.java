package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CsvTable;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prediction intervals from cross-validated residuals, per group of cases: output x stack (the framework family, the
 * part of the stack id before '@': every TensorRT-LLM version is one stack) x chip family. Each group's interval of
 * ln(predicted time / measured time) is a random-effects prediction interval over its sources ({@link SourceEffects}):
 * its width adds how much one source's mean error differs from another's (between-source variance, estimated from the
 * leave-one-source-out residuals) to the spread inside a source (within-source variance), so it is the interval for a
 * case of a source the estimate has not seen, which is what a user's cluster is. A held-out prediction that rests on
 * a fitted constant its fold could not identify also carries that constant's prior ({@link FitUncertainty},
 * {@link #covers(int, double, double)}); shipped predictions rest on identified constants and carry none.
 *
 * <p>A point takes the first group with an interval of its own (at least {@link #MIN_SOURCES} sources) along
 * output x stack x chip family, output x stack (a stack on a chip family it has too few sources for), the output
 * pooled over stacks and chips, and last the phase pooled over its outputs ({@link IntervalOutput#pooled}); TPOT
 * tries whole-request latency's groups before the phase ({@link IntervalOutput#fallback}). There is no chip-family
 * level without the stack: the stacks carry the software mechanisms and their fitted constants, so a stack without
 * groups of its own carries the stack-to-stack spread, which only a group over many stacks estimates (a chip family's
 * few stacks understate it). An output with no group has no interval (NaN), never a made-up one. Memory has no
 * interval: the dev files hold no measured peak memory (the Korthikanti Figure 1 rows are the paper's formula,
 * validation/README.md).
 *
 * <p>Hot path: {@link #group} is resolved once per point configuration (on the driver, or cached per partition);
 * {@link #timeLow} and friends are two multiplications on primitive arrays, no allocation.
 */
public final class IntervalModel {
    public static final double DEFAULT_COVERAGE = 0.80;
    /** Fewest sources a group needs for an interval of its own (its between-source variance). */
    public static final int MIN_SOURCES = SourceEffects.MIN_SOURCES;
    /** The pooled level of a group key. */
    public static final String ANY = "*";
    static final String RESOURCE = "/catalog/intervals.csv";
    private static volatile IntervalModel bundled;

    /**
     * One group's interval of ln(predicted time / measured time).
     *
     * @param stack           a stack (framework family, e.g. trt-llm), or {@link #ANY}
     * @param family          a chip family, or {@link #ANY}
     * @param residuals       held-out residuals in the group
     * @param sources         sources they come from
     * @param logRatioCenter  mean of the source means of ln(predicted / measured time)
     * @param betweenSourceSd standard deviation of a source's mean error around the center (tau)
     * @param withinSourceSd  standard deviation of a case's error around its source's mean (sigma)
     */
    public record Group(IntervalOutput output, String stack, String family, int residuals, int sources,
                        double logRatioCenter, double betweenSourceSd, double withinSourceSd,
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
    /** Per group, t_(k-2, (1+c)/2): the half-width over the predictive sd ({@link SourceEffects}). */
    private final double[] quantile;

    public IntervalModel(double coverage, List<Group> groups) {
        if (!(coverage > 0 && coverage < 1)) {
            throw new IllegalArgumentException("coverage must be in (0, 1): " + coverage);
        }
        this.coverage = coverage;
        this.groups = List.copyOf(groups);
        this.timeLowFactor = new double[groups.size()];
        this.timeHighFactor = new double[groups.size()];
        this.quantile = new double[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            Group x = groups.get(g);
            index.put(x.key(), g);
            // ln(t / T) in [lo, hi]  <=>  T in [t e^-hi, t e^-lo]
            timeLowFactor[g] = Math.exp(-x.logRatioHigh());
            timeHighFactor[g] = Math.exp(-x.logRatioLow());
            quantile[g] = quantile(x.sources(), coverage);
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
        t.requireColumns("output", "stack", "family", "residuals", "sources", "coverage", "log_ratio_center",
                "between_source_sd", "within_source_sd", "log_ratio_low", "log_ratio_high");
        List<Group> groups = new ArrayList<>();
        double coverage = DEFAULT_COVERAGE;
        for (CsvTable.Row r : t.rows()) {
            IntervalOutput o = IntervalOutput.parse(r.string("output"));
            if (o == null) {
                throw r.error("output", "an interval output id", "'" + r.raw("output") + "'");
            }
            coverage = r.positive("coverage");
            groups.add(new Group(o, r.string("stack"), r.string("family"), (int) r.integer("residuals"),
                    (int) r.integer("sources"), r.number("log_ratio_center"), r.number("between_source_sd"),
                    r.number("within_source_sd"), r.number("log_ratio_low"), r.number("log_ratio_high")));
        }
        return new IntervalModel(coverage, groups);
    }

    /** The stack of a group key: a stack id's framework family (the part before '@'); "" for none. */
    public static String stackFamily(String stack) {
        if (stack == null || stack.isEmpty()) {
            return "";
        }
        int at = stack.indexOf('@');
        return at < 0 ? stack : stack.substring(0, at);
    }

    /** Groups from held-out residuals: every key of every level with an interval of its own. */
    public static IntervalModel fromResiduals(List<HeldOutResidual> residuals, double coverage) {
        Map<String, List<HeldOutResidual>> byKey = new TreeMap<>();
        for (HeldOutResidual r : residuals) {
            String stack = stackFamily(r.stack());
            if (!stack.isEmpty()) {
                byKey.computeIfAbsent(Group.key(r.output(), stack, r.family()), k -> new ArrayList<>()).add(r);
                byKey.computeIfAbsent(Group.key(r.output(), stack, ANY), k -> new ArrayList<>()).add(r);
            }
            byKey.computeIfAbsent(Group.key(r.output(), ANY, ANY), k -> new ArrayList<>()).add(r);
            if (r.output().pooled() != null) {
                byKey.computeIfAbsent(Group.key(r.output().pooled(), ANY, ANY), k -> new ArrayList<>()).add(r);
            }
        }
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<String, List<HeldOutResidual>> e : byKey.entrySet()) {
            String[] parts = e.getKey().split("\\|", -1);
            Group g = SourceEffects.estimate(IntervalOutput.parse(parts[0]), parts[1], parts[2], e.getValue(),
                    coverage);
            if (g != null) {
                groups.add(g);
            }
        }
        return new IntervalModel(coverage, groups);
    }

    public double coverage() {
        return coverage;
    }

    /**
     * The same groups at another coverage. A group's interval is center +- t(k-2, (1+c)/2) s ({@link SourceEffects},
     * k its sources), so its half-width scales by the ratio of the two t quantiles: no residual is needed.
     */
    public IntervalModel atCoverage(double newCoverage) {
        if (newCoverage == coverage) {
            return this;
        }
        List<Group> scaled = new ArrayList<>(groups.size());
        for (Group g : groups) {
            double ratio = quantile(g.sources(), newCoverage) / quantile(g.sources(), coverage);
            double mid = (g.logRatioLow() + g.logRatioHigh()) / 2;
            double half = (g.logRatioHigh() - g.logRatioLow()) / 2 * ratio;
            scaled.add(new Group(g.output(), g.stack(), g.family(), g.residuals(), g.sources(), g.logRatioCenter(),
                    g.betweenSourceSd(), g.withinSourceSd(), mid - half, mid + half));
        }
        return new IntervalModel(newCoverage, scaled);
    }

    public List<Group> groups() {
        return groups;
    }

    /** t_(k-2, (1+c)/2) of a group of k sources. */
    static double quantile(int sources, double coverage) {
        return new TDistribution(null, Math.max(1, sources - 2)).inverseCumulativeProbability((1 + coverage) / 2);
    }

    /**
     * The group an output of a point takes (see the class comment for the order); -1 when none has an interval.
     *
     * @param stack the point's stack id or framework family ("" or null when it has none)
     */
    public int group(IntervalOutput output, String stack, String family) {
        String s = stackFamily(stack);
        for (IntervalOutput o = output; o != null; o = o.fallback()) {
            Integer g = s.isEmpty() ? null : index.get(Group.key(o, s, family));
            if (g == null && !s.isEmpty()) {
                g = index.get(Group.key(o, s, ANY));
            }
            if (g == null) {
                g = index.get(Group.key(o, ANY, ANY));
            }
            if (g != null) {
                return g;
            }
        }
        Integer g = output.pooled() == null ? null : index.get(Group.key(output.pooled(), ANY, ANY));
        return g == null ? -1 : g;
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

    /** True when a residual lies inside group g's interval. */
    public boolean covers(int group, double logTimeRatio) {
        return covers(group, logTimeRatio, 0);
    }

    /**
     * True when a residual lies inside group g's interval widened by a prediction's own variance (ln units squared;
     * {@link FitUncertainty}): center +- t sqrt(s^2 + v), s the group's predictive sd, i.e. a half-width of
     * sqrt(half^2 + t^2 v).
     */
    public boolean covers(int group, double logTimeRatio, double fitVariance) {
        Group x = groups.get(group);
        if (fitVariance == 0) {
            return logTimeRatio >= x.logRatioLow() && logTimeRatio <= x.logRatioHigh();
        }
        return Math.abs(logTimeRatio - center(group)) <= halfWidth(group, fitVariance);
    }

    /** The middle of group g's interval (ln units). */
    public double center(int group) {
        Group x = groups.get(group);
        return (x.logRatioLow() + x.logRatioHigh()) / 2;
    }

    /** Half the width of group g's interval for a prediction with its own variance (ln units; 0 = none). */
    public double halfWidth(int group, double fitVariance) {
        Group x = groups.get(group);
        double half = (x.logRatioHigh() - x.logRatioLow()) / 2;
        return fitVariance == 0 ? half : Math.sqrt(half * half + quantile[group] * quantile[group] * fitVariance);
    }

    @Override
    public String toString() {
        return "IntervalModel" + Arrays.toString(groups.toArray());
    }
}
