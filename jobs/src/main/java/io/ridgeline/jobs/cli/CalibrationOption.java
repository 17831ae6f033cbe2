package io.ridgeline.jobs.cli;

import io.ridgeline.engine.calibration.CalibrationProfile;
import io.ridgeline.engine.calibration.Catalogs;
import io.ridgeline.engine.calibration.IntervalModel;
import io.ridgeline.engine.calibration.IntervalOutput;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --calibration PROFILE.yaml} for commands that evaluate the engine: the catalogues built with the profile's
 * values (once), and the intervals that go with them (the profile's, else the bundled ones). A bad file fails before
 * anything runs, with file, line, column and field.
 */
public final class CalibrationOption {
    @Option(names = "--calibration", paramLabel = "PROFILE.yaml",
            description = "Apply a calibration profile (written by `ridgeline calibrate`): its values replace the "
                    + "catalogue values, its intervals replace the bundled ones.")
    Path file;

    private CalibrationProfile profile;
    private Catalogs catalogs;

    /** The profile, or null without --calibration. */
    public CalibrationProfile profile() {
        if (profile == null && file != null) {
            profile = CalibrationProfile.read(file);
        }
        return profile;
    }

    /** The catalogues to evaluate with: the bundled ones, or the profile's. */
    public Catalogs catalogs() {
        if (catalogs == null) {
            catalogs = profile() == null ? Catalogs.bundled() : profile().catalogs();
        }
        return catalogs;
    }

    public IntervalModel intervals() {
        return profile() == null ? IntervalModel.bundled() : profile().intervalsOrBundled();
    }

    /** " [80%: lo – hi]" for a predicted time, or "" when the output has no interval. */
    String besideTime(IntervalOutput output, String stack, String family, double seconds, double scale,
                      String format) {
        IntervalModel m = intervals();
        int g = m.group(output, stack, family);
        return g < 0 ? "" : range(m, m.timeLow(g, seconds) * scale, m.timeHigh(g, seconds) * scale, format);
    }

    /** The same for a predicted rate (tokens/s). */
    String besideRate(IntervalOutput output, String stack, String family, double rate, String format) {
        IntervalModel m = intervals();
        int g = m.group(output, stack, family);
        return g < 0 ? "" : range(m, m.rateLow(g, rate), m.rateHigh(g, rate), format);
    }

    /** step_time_s_interval and tokens_per_s_interval ([lo, hi]) of a training point, when it has an interval. */
    void putTrainingIntervals(Map<String, Object> root, String stack, String family, double stepSeconds, double tokensPerSecond) {
        put(root, "step_time_s", IntervalOutput.STEP_TIME, stack, family, stepSeconds, false);
        put(root, "tokens_per_s", IntervalOutput.STEP_TIME, stack, family, tokensPerSecond, true);
    }

    /** ttft_s_interval, tpot_s_interval, e2e_latency_s_interval, output_tokens_per_s_per_gpu_interval. */
    void putInferenceIntervals(Map<String, Object> root, String stack, String family, double ttftSeconds, double tpotSeconds,
                               double e2eSeconds, double outputTokensPerSecondPerGpu) {
        put(root, "ttft_s", IntervalOutput.TTFT, stack, family, ttftSeconds, false);
        put(root, "tpot_s", IntervalOutput.TPOT, stack, family, tpotSeconds, false);
        put(root, "e2e_latency_s", IntervalOutput.E2E_LATENCY, stack, family, e2eSeconds, false);
        put(root, "output_tokens_per_s_per_gpu", IntervalOutput.OUTPUT_THROUGHPUT, stack, family,
                outputTokensPerSecondPerGpu, true);
    }

    private void put(Map<String, Object> root, String name, IntervalOutput output, String stack, String family,
                     double value,
                     boolean rate) {
        IntervalModel m = intervals();
        int g = m.group(output, stack, family);
        if (g >= 0 && !Double.isNaN(value)) {
            root.put(name + "_interval", List.of(rate ? m.rateLow(g, value) : m.timeLow(g, value),
                    rate ? m.rateHigh(g, value) : m.timeHigh(g, value)));
            root.put("interval_coverage", m.coverage());
        }
    }

    private static String range(IntervalModel m, double lo, double hi, String format) {
        return String.format(Locale.ROOT, " [%.0f%%: " + format + " – " + format + "]", m.coverage() * 100, lo, hi);
    }
}
