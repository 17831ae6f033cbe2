package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.pareto.Skyline;
import org.apache.spark.sql.Row;
import org.apache.spark.util.AccumulatorV2;

import java.util.HashMap;
import java.util.Map;

/**
 * Merges the per-partition skylines of every frontier group on the driver. Merging is idempotent per (point, plan),
 * so a re-executed or speculative task cannot duplicate frontier rows.
 */
public final class FrontierAccumulator extends AccumulatorV2<Map<Long, Skyline<Row>>, Map<Long, Skyline<Row>>> {
    private static final long serialVersionUID = 1L;
    private final HashMap<Long, Skyline<Row>> groups = new HashMap<>();

    @Override
    public boolean isZero() {
        return groups.isEmpty();
    }

    @Override
    public AccumulatorV2<Map<Long, Skyline<Row>>, Map<Long, Skyline<Row>>> copy() {
        FrontierAccumulator c = new FrontierAccumulator();
        c.add(groups);
        return c;
    }

    @Override
    public void reset() {
        groups.clear();
    }

    @Override
    public void add(Map<Long, Skyline<Row>> partition) {
        for (Map.Entry<Long, Skyline<Row>> e : partition.entrySet()) {
            Skyline<Row> mine = groups.get(e.getKey());
            if (mine == null) {
                mine = new Skyline<>(e.getValue().dimensions());
                groups.put(e.getKey(), mine);
            }
            mine.merge(e.getValue());
        }
    }

    @Override
    public void merge(AccumulatorV2<Map<Long, Skyline<Row>>, Map<Long, Skyline<Row>>> other) {
        add(other.value());
    }

    @Override
    public Map<Long, Skyline<Row>> value() {
        return groups;
    }
}
