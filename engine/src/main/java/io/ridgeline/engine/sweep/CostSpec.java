package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.TcoParameters;

import java.io.Serializable;

/**
 * A sweep's {@code cost:} section: the TCO knobs ({@link TcoParameters}, defaults documented there and in
 * docs/SWEEPS.md), plus the token budget of one run.
 *
 * @param tokens tokens one run processes (trained tokens, or generated tokens served), for {@code run_cost_usd};
 *               0 = no budget (the column stays null)
 */
public record CostSpec(TcoParameters parameters, double tokens) implements Serializable {
    private static final long serialVersionUID = 2L;
}
