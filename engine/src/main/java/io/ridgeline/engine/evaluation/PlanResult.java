package io.ridgeline.engine.evaluation;

/**
 * What the {@link Evaluator} needs of one evaluated plan, in either phase: whether it runs, why not, how much memory
 * it needs (a memory miss is ranked by it) and what limits it. Training and inference results implement it.
 */
public interface PlanResult {
    Infeasibility infeasibility();

    /** Why the plan is infeasible, as text ("" when feasible). */
    String detail();

    /** Everything resident on the most loaded device. */
    double totalMemoryBytes();

    Bottleneck bottleneck();

    default boolean feasible() {
        return infeasibility() == Infeasibility.NONE;
    }
}
