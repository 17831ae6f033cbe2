package io.ridgeline.engine.calibration;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The calibration a sweep applies (its {@code calibration:} key), from the profile text its spec carries: parsed once
 * per JVM and profile, so the driver and every executor build the same catalogues and intervals from the same bytes.
 * The catalogues are built with the profile's values (parse-time substitution, {@link Catalogs}), exactly as {@code
 * eval --calibration} and {@code validate --calibration} apply a profile; the intervals are the profile's own, else
 * the bundled ones, at the sweep's {@code output.interval_coverage}.
 */
public final class SweepCalibration {
    private static final ConcurrentHashMap<String, CalibrationProfile> PROFILES = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, IntervalModel> INTERVALS = new ConcurrentHashMap<>();

    private SweepCalibration() {
    }

    /**
     * The sweep's profile, or null when it names none.
     *
     * @throws io.ridgeline.engine.spec.InvalidInputException with the profile file, line, column and field of every
     *                                                        problem
     */
    public static CalibrationProfile profile(SweepSpec spec) {
        SweepSpec.CalibrationFile f = spec.calibration();
        if (f == null) {
            return null;
        }
        CalibrationProfile p = PROFILES.get(f.sha256());
        if (p == null) {
            p = CalibrationProfile.parse(f.path(), f.text());
            PROFILES.put(f.sha256(), p);
        }
        return p;
    }

    /** The catalogues the sweep evaluates with: the bundled ones, or the profile's. */
    public static Catalogs catalogs(SweepSpec spec) {
        CalibrationProfile p = profile(spec);
        return p == null ? Catalogs.bundled() : p.catalogs();
    }

    /** The intervals of the sweep's rows: the profile's, else the bundled ones, at output.interval_coverage. */
    public static IntervalModel intervals(SweepSpec spec) {
        SweepSpec.CalibrationFile f = spec.calibration();
        double coverage = Double.isNaN(spec.intervalCoverage()) ? IntervalModel.DEFAULT_COVERAGE
                : spec.intervalCoverage();
        String key = (f == null ? "" : f.sha256()) + "@" + coverage;
        IntervalModel m = INTERVALS.get(key);
        if (m == null) {
            CalibrationProfile p = profile(spec);
            m = (p == null ? IntervalModel.bundled() : p.intervalsOrBundled()).atCoverage(coverage);
            INTERVALS.put(key, m);
        }
        return m;
    }

    /** An evaluator of the sweep on its catalogues (one per thread or Spark partition, like any evaluator). */
    public static Evaluator evaluator(SweepSpec spec) {
        Catalogs c = catalogs(spec);
        return new Evaluator(spec, ModelCatalog.bundled(), c.hardware(), c.stacks());
    }
}
