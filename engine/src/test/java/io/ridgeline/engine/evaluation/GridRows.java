package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;

/** Test helper: every row an {@link Evaluator} emits for every point of a spec's grid, in grid order. */
public final class GridRows {
    private GridRows() {
    }

    public static List<ResultRow> of(SweepSpec spec) {
        Evaluator ev = new Evaluator(spec);
        List<ResultRow> out = new ArrayList<>();
        for (long i = 0; i < ev.grid().size(); i++) {
            out.addAll(ev.evaluate(i));
        }
        return out;
    }
}
