package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.pareto.Skyline;

import java.util.List;

/**
 * The one plan-selection routine of sweeps and plan searches: offered a point's plans one by one, it keeps the best
 * eligible plan (objectives lexicographic, ties to the lower plan index), the point's own frontier of eligible plans,
 * or both, and the closest miss when no plan is eligible: a plan that only breaks a constraint, else the plan needing
 * the least memory, else the first plan's other problem. Eligible = feasible and inside the constraints.
 *
 * <p>Reused per point ({@link #clear}); offering allocates nothing except a frontier entry that the skyline accepts.
 * Selections of disjoint plan sets merge ({@link #merge}) into the selection of their union.
 *
 * @param <T> what is kept per plan (an engine result, a plan)
 */
public final class PlanSelection<T> {
    /** A frontier plan with its metrics (a private copy). */
    public record Candidate<T>(int planIndex, T item, double[] metrics) {
    }

    private static final int CONSTRAINT = 0;
    private static final int MEMORY = 1;
    private static final int OTHER = 2;

    private final boolean keepBest;
    private final Skyline<Candidate<T>> frontier;
    private final double[] bestObjective;
    private final double[] bestMetrics;
    private int best = -1;
    private T bestItem;
    private int miss = -1;
    private T missItem;
    private int missRank = Integer.MAX_VALUE;
    private double missBytes = Double.POSITIVE_INFINITY;
    private String missDetail;

    /**
     * @param objectives   length of the objective vectors
     * @param metrics      length of the metrics rows
     * @param keepBest     keep the best eligible plan
     * @param keepFrontier keep the frontier of eligible plans
     */
    public PlanSelection(int objectives, int metrics, boolean keepBest, boolean keepFrontier) {
        this(objectives, new double[metrics], keepBest, keepFrontier);
    }

    /**
     * A selection that keeps the best plan's metrics in {@code bestMetrics} (a caller's row, so the best plan needs
     * no further copy).
     */
    public PlanSelection(int objectives, double[] bestMetrics, boolean keepBest, boolean keepFrontier) {
        this.keepBest = keepBest;
        this.frontier = keepFrontier ? new Skyline<>(objectives) : null;
        this.bestObjective = new double[objectives];
        this.bestMetrics = bestMetrics;
    }

    /** Forgets every plan (next point). */
    public void clear() {
        best = -1;
        bestItem = null;
        miss = -1;
        missItem = null;
        missRank = Integer.MAX_VALUE;
        missBytes = Double.POSITIVE_INFINITY;
        missDetail = null;
        if (frontier != null) {
            frontier.clear();
        }
    }

    /** A plan that cannot run: a memory miss ranks by the bytes it needs, any other reason after every memory miss. */
    public void infeasible(int planIndex, T item, boolean memory, double requiredBytes) {
        int rank = memory ? MEMORY : OTHER;
        double bytes = memory ? requiredBytes : Double.POSITIVE_INFINITY;
        if (rank < missRank || (rank == missRank && bytes < missBytes)) {
            miss = planIndex;
            missItem = item;
            missRank = rank;
            missBytes = bytes;
            missDetail = null; // the item's own text, formatted only if this miss is emitted
        }
    }

    /** A plan that runs but breaks a constraint ({@code why}): the closest miss, the first such plan. */
    public void outsideBounds(int planIndex, T item, String why) {
        if (missRank > CONSTRAINT) {
            miss = planIndex;
            missItem = item;
            missRank = CONSTRAINT;
            missBytes = Double.NEGATIVE_INFINITY; // constraint misses tie: the lower plan index wins a merge
            missDetail = why;
        }
    }

    /** An eligible plan: its minimisation vector and metrics row (both copied if kept). */
    public void eligible(long pointIndex, int planIndex, T item, double[] objective, double[] metrics) {
        if (frontier != null) {
            frontier.offer(objective, pointIndex, planIndex, () -> new Candidate<>(planIndex, item, metrics.clone()));
        }
        if (keepBest && (best < 0 || better(objective, planIndex, bestObjective, best))) {
            best = planIndex;
            bestItem = item;
            System.arraycopy(objective, 0, bestObjective, 0, objective.length);
            System.arraycopy(metrics, 0, bestMetrics, 0, metrics.length);
        }
    }

    /** Adds the selection of another, disjoint set of plans of the same point (a parallel search's worker). */
    public void merge(PlanSelection<T> other) {
        if (frontier != null) {
            frontier.merge(other.frontier);
        }
        if (other.best >= 0 && (best < 0 || better(other.bestObjective, other.best, bestObjective, best))) {
            best = other.best;
            bestItem = other.bestItem;
            System.arraycopy(other.bestObjective, 0, bestObjective, 0, bestObjective.length);
            System.arraycopy(other.bestMetrics, 0, bestMetrics, 0, bestMetrics.length);
        }
        if (other.miss >= 0 && (other.missRank < missRank || other.missRank == missRank
                && (other.missBytes < missBytes || other.missBytes == missBytes && other.miss < miss))) {
            miss = other.miss;
            missItem = other.missItem;
            missRank = other.missRank;
            missBytes = other.missBytes;
            missDetail = other.missDetail;
        }
    }

    /** Lexicographic on the minimisation vectors, then the lower plan index. */
    public static boolean better(double[] a, long aIndex, double[] b, long bIndex) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] < b[i]) {
                return true;
            }
            if (a[i] > b[i]) {
                return false;
            }
        }
        return aIndex < bIndex;
    }

    /** The best eligible plan's index, or -1. */
    public int best() {
        return best;
    }

    public T bestItem() {
        return bestItem;
    }

    /** The best plan's metrics row. Do not modify. */
    public double[] bestMetrics() {
        return bestMetrics;
    }

    /** The frontier's plans in canonical order (empty when the frontier is not kept). */
    public List<Skyline.Entry<Candidate<T>>> frontier() {
        return frontier == null ? List.of() : frontier.entries();
    }

    /** Plans on the frontier so far. */
    public int frontierSize() {
        return frontier == null ? 0 : frontier.size();
    }

    /** The closest miss's index, or -1 when every plan was eligible or none was offered. */
    public int miss() {
        return miss;
    }

    public T missItem() {
        return missItem;
    }

    /** Whether the closest miss runs and only breaks a constraint. */
    public boolean missBreaksAConstraint() {
        return missRank == CONSTRAINT;
    }

    /** The broken constraint, or null: then the miss item's own text says why. */
    public String missDetail() {
        return missDetail;
    }
}
