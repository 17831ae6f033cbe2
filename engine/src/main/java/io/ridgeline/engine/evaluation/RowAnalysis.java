package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.ServiceLoader;

/**
 * Columns an {@link Evaluator} adds to each row it emits beyond the phase's metrics: the energy split and, with
 * {@code output.sensitivity}, the sensitivities ({@code engine.sensitivity}); the prediction intervals
 * ({@code engine.calibration.IntervalColumns}). Listed in
 * {@code META-INF/services/io.ridgeline.engine.evaluation.RowAnalysis$Provider} like the phases, so this package does
 * not depend on the packages that re-evaluate through it. Every listed provider runs, in the order of their class
 * names (each fills its own columns, so the order only fixes determinism).
 */
public interface RowAnalysis {
    /**
     * Fills the row's analysis columns (clearing them first) for the plan {@code result} it was emitted with (null
     * when none), on {@code system}; {@code source} is the evaluator emitting it (its per-plan rates of this point:
     * {@link Evaluator#planRate}). Returns the engine evaluations it ran.
     */
    long analyse(Evaluator source, ResultRow row, PlanResult result, SystemSpec system);

    /** Makes the analysis of one spec; one per evaluator (not thread-safe). */
    interface Provider {
        RowAnalysis create(SweepSpec spec, ModelCatalog models, HardwareCatalog hardware, StackCatalog stacks);
    }

    /** The providers on the class path composed into one, or null when there is none (the columns stay null). */
    static Provider provider() {
        return Loaded.PROVIDER;
    }

    /** Found once (class initialisation is the lock). */
    final class Loaded {
        static final Provider PROVIDER = compose(ServiceLoader.load(Provider.class, Provider.class.getClassLoader())
                .stream().map(ServiceLoader.Provider::get)
                .sorted(java.util.Comparator.comparing(p -> p.getClass().getName())).toList());

        private Loaded() {
        }

        static Provider compose(java.util.List<Provider> providers) {
            if (providers.isEmpty()) {
                return null;
            }
            if (providers.size() == 1) {
                return providers.get(0);
            }
            return (spec, models, hardware, stacks) -> {
                RowAnalysis[] all = new RowAnalysis[providers.size()];
                for (int i = 0; i < all.length; i++) {
                    all[i] = providers.get(i).create(spec, models, hardware, stacks);
                }
                return (source, row, result, system) -> {
                    long evaluations = 0;
                    for (RowAnalysis a : all) {
                        evaluations += a.analyse(source, row, result, system);
                    }
                    return evaluations;
                };
            };
        }
    }
}
