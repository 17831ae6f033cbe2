package io.ridgeline.engine.calibration;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The interval of one group of held-out residuals under a random-effects model of its sources: a residual is
 * r = mu + b_source + e with b_source ~ N(0, tau^2) (how much one source's mean error differs: one lab's cluster and
 * software) and e ~ N(0, sigma^2) (the spread inside one source). A new source's case then falls in
 * mu_hat +- t_{k-2, (1+c)/2} sqrt(tau^2 + SE(mu_hat)^2 + sigma^2): the random-effects prediction interval of Higgins,
 * Thompson and Spiegelhalter 2009 ("A re-evaluation of random-effects meta-analysis", JRSS A 172, eq. 12, for a new
 * study's mean) with the within-source variance added for one case of that study. The held-out source is the unit of
 * exchangeability, not the case: 1,440 cases of one source count as one draw of b_source.
 *
 * <p>Estimates, each source weighted the same: mu_hat = the mean of the k source means; tau^2 by the unweighted
 * method of moments (Hedges 1983: the variance of the source means minus the mean of their sampling variances
 * v_s / n_s, floored at 0); SE(mu_hat)^2 = the variance of the source means / k; sigma^2 = the mean of the sources'
 * own variances (sources with two or more residuals). A group needs {@link #MIN_SOURCES} sources (t has k - 2
 * degrees of freedom) and one source with two residuals; otherwise it has no interval of its own.
 */
final class SourceEffects {
    /** Fewest sources whose means estimate the between-source variance: t_{k-2} needs k >= 3. */
    static final int MIN_SOURCES = 3;

    private SourceEffects() {
    }

    /**
     * The group's interval at {@code coverage}, or null when it has too few sources.
     *
     * @param residuals held-out residuals of one group (ln predicted / measured time)
     */
    static IntervalModel.Group estimate(IntervalOutput output, String stack, String family,
                                        List<HeldOutResidual> residuals, double coverage) {
        // Sorted by source so the floating-point sums, and the shipped bytes, do not depend on case order.
        Map<String, List<Double>> bySource = new TreeMap<>();
        for (HeldOutResidual r : residuals) {
            bySource.computeIfAbsent(r.source(), x -> new ArrayList<>()).add(r.logTimeRatio());
        }
        int k = bySource.size();
        if (k < MIN_SOURCES) {
            return null;
        }
        double[] mean = new double[k];
        double[] n = new double[k];
        double[] variance = new double[k];
        double withinSum = 0;
        int withinSources = 0;
        int s = 0;
        for (List<Double> values : bySource.values()) {
            n[s] = values.size();
            double sum = 0;
            for (double v : values) {
                sum += v;
            }
            mean[s] = sum / n[s];
            double squares = 0;
            for (double v : values) {
                squares += (v - mean[s]) * (v - mean[s]);
            }
            // Sample variance (n - 1); NaN for a source with one residual.
            variance[s] = values.size() < 2 ? Double.NaN : squares / (n[s] - 1);
            if (values.size() >= 2) {
                withinSum += variance[s];
                withinSources++;
            }
            s++;
        }
        if (withinSources == 0) {
            return null;
        }
        double within = withinSum / withinSources;
        double center = 0;
        for (double m : mean) {
            center += m;
        }
        center /= k;
        double meansVariance = 0;
        double samplingVariance = 0;
        for (int j = 0; j < k; j++) {
            meansVariance += (mean[j] - center) * (mean[j] - center);
            // A one-residual source's sampling variance: the pooled within-source variance.
            samplingVariance += (Double.isNaN(variance[j]) ? within : variance[j]) / n[j];
        }
        meansVariance /= k - 1;
        samplingVariance /= k;
        // Hedges 1983 (unweighted method of moments): tau^2 = S^2 of the source means - mean sampling variance.
        double between = Math.max(0, meansVariance - samplingVariance);
        double centerVariance = meansVariance / k;
        // Higgins et al. 2009 eq. 12: t with k - 2 degrees of freedom, plus one case's within-source variance.
        double t = new TDistribution(null, k - 2).inverseCumulativeProbability((1 + coverage) / 2);
        double half = t * Math.sqrt(between + centerVariance + within);
        return new IntervalModel.Group(output, stack, family, residuals.size(), k, center, Math.sqrt(between),
                Math.sqrt(within), center - half, center + half);
    }
}
