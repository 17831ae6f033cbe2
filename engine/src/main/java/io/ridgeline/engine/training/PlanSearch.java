package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.Objectives;
import io.ridgeline.engine.evaluation.PlanSelection;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exhaustive search of one training point's whole plan space ({@link PlanSpace}) on plain Java threads: every plan is
 * evaluated, none is pruned. Returns the best eligible plan and the plan frontier over the objectives, chosen by the
 * sweeps' own {@link PlanSelection} (objectives lexicographic, ties to the lower plan index). Eligible = feasible.
 *
 * <p>Lifecycle: 1. the layouts (parallel sizes x micro-batch, a few hundred) are listed on the calling thread;
 * 2. {@code threads} workers, each with its own {@link TrainingStep} (per-thread caches), take layouts from a shared
 * counter and walk their options, keeping a local selection; plans are built one at a time, never materialised;
 * 3. the selections are merged. The result does not depend on the thread count or on scheduling: the best is a total
 * order (objectives, then index) and the skyline is order-independent. A worker's failure (a bug) fails the search.
 */
public final class PlanSearch {
    /** The best plan with its metrics (indexed by {@link Metric#ordinal()}), the frontier, and what it took. */
    public record Result(long plans, long feasible, long bestIndex, TrainingPlan best, double[] bestMetrics,
                         List<Skyline.Entry<PlanSelection.Candidate<TrainingPlan>>> frontier, int threads,
                         double seconds) {
    }

    /** The training point whose plans are searched. */
    private record Point(ModelSpec model, int seqLen, SystemSpec system, int globalBatch, PlanSpace.Axes axes) {
    }

    private PlanSearch() {
    }

    public static Result run(ModelSpec model, int seqLen, SystemSpec system, int globalBatch, PlanSpace.Axes axes,
                             List<SweepSpec.Objective> objectives, int threads, HardwareCatalog hardware) {
        if (objectives.isEmpty()) {
            throw new IllegalArgumentException("a plan search needs at least one objective");
        }
        long t0 = System.nanoTime();
        List<PlanSpace.Layout> layouts = PlanSpace.layouts(model, seqLen, system.gpuCount(), globalBatch, axes);
        if (PlanSpace.count(layouts) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("plan space too large: " + PlanSpace.count(layouts) + " plans");
        }
        int n = Math.max(1, Math.min(threads, layouts.size()));
        AtomicInteger next = new AtomicInteger();
        Point point = new Point(model, seqLen, system, globalBatch, axes);
        Worker[] workers = new Worker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(point, objectives, layouts, next, hardware);
        }
        Thread[] started = new Thread[n - 1];
        for (int i = 1; i < n; i++) {
            started[i - 1] = new Thread(workers[i], "plan-search-" + i);
            started[i - 1].start();
        }
        workers[0].run();
        for (Thread t : started) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while searching plans", e);
            }
        }
        PlanSelection<TrainingPlan> all = new PlanSelection<>(objectives.size(), Metric.values().length, true,
                true);
        long feasible = 0;
        for (Worker w : workers) {
            if (w.failure != null) {
                throw new IllegalStateException("plan search worker failed", w.failure);
            }
            feasible += w.feasible;
            all.merge(w.selection);
        }
        boolean found = all.best() >= 0;
        return new Result(PlanSpace.count(layouts), feasible, all.best(), found ? all.bestItem() : null,
                found ? all.bestMetrics().clone() : null, all.frontier(), n, (System.nanoTime() - t0) / 1e9);
    }

    private static final class Worker implements Runnable {
        private final Point point;
        private final List<PlanSpace.Layout> layouts;
        private final AtomicInteger next;
        private final TrainingStep step;
        private final Objectives objectives;
        private final double[] metrics = new double[Metric.values().length];
        private final double[] objective;
        private final double tokensPerStep;
        final PlanSelection<TrainingPlan> selection;
        long feasible;
        Throwable failure;

        Worker(Point point, List<SweepSpec.Objective> objectives, List<PlanSpace.Layout> layouts, AtomicInteger next,
               HardwareCatalog hardware) {
            this.point = point;
            this.layouts = layouts;
            this.next = next;
            this.step = new TrainingStep(hardware);
            this.objectives = new Objectives(objectives);
            this.objective = new double[objectives.size()];
            this.selection = new PlanSelection<>(objectives.size(), metrics.length, true, true);
            this.tokensPerStep = (double) point.seqLen() * point.globalBatch();
        }

        @Override
        public void run() {
            try {
                for (int li = next.getAndIncrement(); li < layouts.size(); li = next.getAndIncrement()) {
                    PlanSpace.Layout layout = layouts.get(li);
                    for (int o = 0; o < layout.options(); o++) {
                        evaluate(PlanSpace.plan(layout, o, point.globalBatch(), point.axes()),
                                (int) (layout.firstPlan() + o));
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        private void evaluate(TrainingPlan plan, int index) {
            TrainingResult r = step.evaluate(point.model(), point.seqLen(), point.system(), plan);
            if (!r.feasible()) {
                return;
            }
            feasible++;
            TrainingColumns.fill(metrics, r, point.system().chip(), point.system().gpuCount(), tokensPerStep);
            objectives.vector(metrics, objective);
            selection.eligible(0, index, plan, objective, metrics);
        }
    }

    /** Plans per second of a finished search. */
    public static double plansPerSecond(Result r) {
        return r.plans() / r.seconds();
    }

    /** The frontier's plans, in canonical order (for printing). */
    public static List<TrainingPlan> frontierPlans(Result r) {
        List<TrainingPlan> out = new ArrayList<>();
        for (Skyline.Entry<PlanSelection.Candidate<TrainingPlan>> e : r.frontier()) {
            out.add(e.payload().item());
        }
        return out;
    }
}
