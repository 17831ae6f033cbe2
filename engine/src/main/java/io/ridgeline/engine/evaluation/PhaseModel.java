package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * One workload phase's engine behind the {@link Evaluator} (training steps, inference requests). Phases sit beside
 * each other under the evaluator, which knows neither: each is listed in
 * {@code META-INF/services/io.ridgeline.engine.evaluation.PhaseModel} and found once per evaluator, so this package
 * does not depend on the phase packages that depend on it (Infeasibility, Bottleneck, PlanResult).
 */
public abstract class PhaseModel {
    /** Makes a phase's {@link Points} for one spec. */
    @FunctionalInterface
    public interface Factory {
        Points points(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware, StackCatalog stacks);
    }

    private final SweepSpec.Phase phase;
    private final Factory factory;

    protected PhaseModel(SweepSpec.Phase phase, Factory factory) {
        this.phase = phase;
        this.factory = factory;
    }

    public final SweepSpec.Phase phase() {
        return phase;
    }

    /** Evaluates this phase's grid points of a spec; one per {@link Evaluator} (not thread-safe). */
    public final Points points(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware, StackCatalog stacks) {
        return factory.points(spec, models, hardware, stacks);
    }

    /**
     * The plans of one phase's grid points and how they read as row cells. The point's context (model, workload,
     * chip, GPU count, coordinates) is in the {@link ResultRow} the evaluator passes; plan {@code i} is an index into
     * the point's plan list (the search list, or the one explicit plan).
     */
    public interface Points {
        /**
         * Plans at the point: the size of its search list, or 1 for an explicit plan. The evaluator asks this first
         * for each point; the plan steps that follow ({@link #evaluate}, {@link #fillMetrics}, {@link #writePlan})
         * are about that point.
         */
        int plans(ResultRow point);

        /** One engine evaluation of plan {@code i}; null when that explicit plan cannot exist at this GPU count. */
        PlanResult evaluate(ResultRow point, SystemSpec system, int i);

        /** The performance metrics of an evaluated plan (the evaluator adds the TCO columns). */
        void fillMetrics(ResultRow point, int i, PlanResult r, double[] metrics);

        /** What an infeasible result still says (memory needed and available), over metrics the evaluator reset. */
        void fillInfeasible(ResultRow point, PlanResult r, double[] metrics);

        /**
         * The phase's workload cells of the point (inference settings; software), written when the point's workload
         * changes; the workload cells only other phases have are empty (a new workload field is one cell here).
         */
        void writeWorkload(ResultRow point);

        /** The plan cells of plan {@code i} (tp, pp, ..., precision) into the point's row. */
        void writePlan(ResultRow point, int i);

        /** Why a search found no plan for the point (the lists that would have to change). */
        String noPlan();

        /**
         * Why an explicit plan without dp cannot fill {@code gpus} with whole replicas ({@link
         * io.ridgeline.engine.parallelism.ShapeRules#wholeReplicas}: a replica is tp x pp x cp GPUs in training, tp
         * x ep x pp in inference).
         */
        InputError wholeReplicas(int gpus, SweepSpec.ExplicitPlan plan);

        /**
         * Every reason plan {@code i} cannot run at the point, as errors on the plan's fields ({@code plan.tp},
         * {@code plan.dp} ...): the shape rules and the GPU count; empty when it can; null when that explicit plan
         * cannot exist at this GPU count (the evaluator says why). For single-point front ends, which refuse such a
         * plan where a sweep would write a row with its status.
         */
        List<InputError> problems(ResultRow point, int i);

        /**
         * The points of another spec on the same engines (the phase steps and their per-chip and per-system caches)
         * and catalogues: for a front end that evaluates many one-point specs, such as measured cases.
         */
        Points over(SweepSpec spec, ModelSpec[] models);
    }

    /** The phases found on the class path, by phase (looked up once). */
    static Map<SweepSpec.Phase, PhaseModel> all() {
        return Loaded.ALL;
    }

    /** Found on first use, once (the JVM's class initialisation is the lock). */
    private static final class Loaded {
        static final Map<SweepSpec.Phase, PhaseModel> ALL = load();
    }

    /** The phases on the class path; a missing or doubled phase is a packaging bug. */
    private static Map<SweepSpec.Phase, PhaseModel> load() {
        Map<SweepSpec.Phase, PhaseModel> out = new EnumMap<>(SweepSpec.Phase.class);
        for (PhaseModel m : ServiceLoader.load(PhaseModel.class, PhaseModel.class.getClassLoader())) {
            if (out.put(m.phase(), m) != null) {
                throw new IllegalStateException("two phase models for " + m.phase().id());
            }
        }
        for (SweepSpec.Phase p : SweepSpec.Phase.values()) {
            if (!out.containsKey(p)) {
                throw new IllegalStateException("no phase model for " + p.id() + " on the class path (META-INF/services"
                        + "/" + PhaseModel.class.getName() + ")");
            }
        }
        return out;
    }
}
