package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.ServiceLoader;

/**
 * Columns an {@link Evaluator} adds to each row it emits beyond the phase's metrics: the energy split and, with
 * {@code output.sensitivity}, the sensitivities ({@code engine.sensitivity}). Listed in
 * {@code META-INF/services/io.ridgeline.engine.evaluation.RowAnalysis$Provider} like the phases, so this package does
 * not depend on the package that re-evaluates through it.
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
        RowAnalysis create(SweepSpec spec, ModelCatalog models, HardwareCatalog hardware);
    }

    /** The provider on the class path, or null when there is none (the columns then stay null). */
    static Provider provider() {
        return Loaded.PROVIDER;
    }

    /** Found once (class initialisation is the lock). */
    final class Loaded {
        static final Provider PROVIDER = ServiceLoader.load(Provider.class, Provider.class.getClassLoader())
                .findFirst().orElse(null);

        private Loaded() {
        }
    }
}
