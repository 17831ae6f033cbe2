package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exhaustive search of one training point's whole plan space ({@link PlanSpace}) on plain Java threads: every plan is
 * evaluated, none is pruned. Returns the best eligible plan (objectives lexicographic, ties to the lower plan index,
 * as {@link SweepEvaluator} picks) and the plan frontier over the objectives. Eligible = feasible.
 *
 * <p>Lifecycle: 1. the layouts (parallel sizes x micro-batch, a few hundred) are listed on the calling thread;
 * 2. {@code threads} workers, each with its own {@link TrainingStep} (per-thread caches), take layouts from a shared
 * counter and walk their options, keeping a local best and a local skyline; plans are built one at a time, never
 * materialised; 3. the locals are merged. The result does not depend on the thread count or on scheduling: the best
 * is a total order (objectives, then index) and the skyline is order-independent. A worker's failure (a bug) fails
 * the search.
 */
public final class PlanSearch {
    /** The best plan with its metrics (indexed by {@link Metric#ordinal()}), the frontier, and what it took. */
    public record Result(long plans, long feasible, long bestIndex, TrainingPlan best, double[] bestMetrics,
                         List<Skyline.Entry<Candidate>> frontier, int threads, double seconds) {
    }

    /** A frontier plan with its metrics. */
    public record Candidate(TrainingPlan plan, double[] metrics) {
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
        Worker[] workers = new Worker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(model, seqLen, system, globalBatch, axes, objectives, layouts, next, hardware);
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
        Skyline<Candidate> frontier = new Skyline<>(objectives.size());
        Worker best = null;
        long feasible = 0;
        for (Worker w : workers) {
            if (w.failure != null) {
                throw new IllegalStateException("plan search worker failed", w.failure);
            }
            feasible += w.feasible;
            frontier.merge(w.frontier);
            if (w.bestIndex >= 0 && (best == null || w.better(w.bestObjective, w.bestIndex, best.bestObjective,
                    best.bestIndex))) {
                best = w;
            }
        }
        return new Result(PlanSpace.count(layouts), feasible, best == null ? -1 : best.bestIndex,
                best == null ? null : best.bestPlan, best == null ? null : best.bestMetrics, frontier.entries(), n,
                (System.nanoTime() - t0) / 1e9);
    }

    private static final class Worker implements Runnable {
        private final ModelSpec model;
        private final int seqLen;
        private final SystemSpec system;
        private final int globalBatch;
        private final PlanSpace.Axes axes;
        private final List<PlanSpace.Layout> layouts;
        private final AtomicInteger next;
        private final TrainingStep step;
        private final int[] objectiveMetrics;
        private final boolean[] objectiveMax;
        private final double[] metrics = new double[Metric.values().length];
        private final double[] objective;
        private final double[] bestObjective;
        private final double tokensPerStep;
        final Skyline<Candidate> frontier;
        long bestIndex = -1;
        TrainingPlan bestPlan;
        double[] bestMetrics;
        long feasible;
        Throwable failure;

        Worker(ModelSpec model, int seqLen, SystemSpec system, int globalBatch, PlanSpace.Axes axes,
               List<SweepSpec.Objective> objectives, List<PlanSpace.Layout> layouts, AtomicInteger next,
               HardwareCatalog hardware) {
            this.model = model;
            this.seqLen = seqLen;
            this.system = system;
            this.globalBatch = globalBatch;
            this.axes = axes;
            this.layouts = layouts;
            this.next = next;
            this.step = new TrainingStep(hardware);
            this.objectiveMetrics = new int[objectives.size()];
            this.objectiveMax = new boolean[objectives.size()];
            for (int i = 0; i < objectives.size(); i++) {
                objectiveMetrics[i] = objectives.get(i).metric().ordinal();
                objectiveMax[i] = objectives.get(i).goal() == Goal.MAX;
            }
            this.objective = new double[objectives.size()];
            this.bestObjective = new double[objectives.size()];
            this.frontier = new Skyline<>(objectives.size());
            this.tokensPerStep = (double) seqLen * globalBatch;
        }

        @Override
        public void run() {
            try {
                for (int li = next.getAndIncrement(); li < layouts.size(); li = next.getAndIncrement()) {
                    PlanSpace.Layout layout = layouts.get(li);
                    for (int o = 0; o < layout.options(); o++) {
                        evaluate(PlanSpace.plan(layout, o, globalBatch, axes), layout.firstPlan() + o);
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        private void evaluate(TrainingPlan plan, long index) {
            TrainingResult r = step.evaluate(model, seqLen, system, plan);
            if (!r.feasible()) {
                return;
            }
            feasible++;
            Metric.fill(metrics, r, system.chip(), system.gpuCount(), tokensPerStep);
            for (int i = 0; i < objective.length; i++) {
                double v = metrics[objectiveMetrics[i]];
                objective[i] = objectiveMax[i] ? -v : v;
            }
            frontier.offer(objective, 0, (int) index, () -> new Candidate(plan, metrics.clone()));
            if (bestIndex < 0 || better(objective, index, bestObjective, bestIndex)) {
                bestIndex = index;
                bestPlan = plan;
                System.arraycopy(objective, 0, bestObjective, 0, objective.length);
                bestMetrics = metrics.clone();
            }
        }

        /** Lexicographic on the objective vector, then the lower plan index. */
        boolean better(double[] a, long ai, double[] b, long bi) {
            for (int i = 0; i < a.length; i++) {
                if (a[i] < b[i]) {
                    return true;
                }
                if (a[i] > b[i]) {
                    return false;
                }
            }
            return ai < bi;
        }
    }

    /** Plans per second of a finished search. */
    public static double plansPerSecond(Result r) {
        return r.plans() / r.seconds();
    }

    /** The frontier's plans, in canonical order (for printing). */
    public static List<TrainingPlan> frontierPlans(Result r) {
        List<TrainingPlan> out = new ArrayList<>();
        for (Skyline.Entry<Candidate> e : r.frontier()) {
            out.add(e.payload().plan());
        }
        return out;
    }
}
