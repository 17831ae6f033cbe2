package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.pareto.RobustDominance;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a partition folds its ok rows into, and the driver merges: per frontier group, the skyline of the objective
 * vectors (the frontier, with its rows), and per frontier group and {@code interval_group}, the skyline of best
 * vectors (each objective at the favourable end of its interval), from which {@link #robust} decides whether a
 * frontier row's dominance survives the intervals ({@link RobustDominance}: it suffices to test a row against the
 * other interval groups' best-vector skylines). Both merge like the frontier: idempotent per (point, plan).
 */
public final class FrontierFold implements Serializable {
    private static final long serialVersionUID = 1L;
    /** A row without interval columns: its interval group key. */
    static final String NO_INTERVAL = "";
    private static final int INTERVAL_GROUP_COLUMN = ResultsSchema.POINTS.index("interval_group");

    private final HashMap<Long, Skyline<Row>> frontiers = new HashMap<>();
    private final HashMap<Long, HashMap<String, Skyline<Boolean>>> bests = new HashMap<>();

    /** Folds an ok row with its objective vector and its best vector into group {@code key}. */
    void offer(ResultRow p, long key, double[] objective, double[] best) {
        Skyline<Row> s = frontiers.get(key);
        if (s == null) {
            s = new Skyline<>(objective.length);
            frontiers.put(key, s);
        }
        s.offer(objective, p.pointIndex(), p.planIndex(), () -> PointRows.toRow(p));
        String group = p.text(ResultRow.Text.INTERVAL_GROUP);
        HashMap<String, Skyline<Boolean>> byGroup = bests.get(key);
        if (byGroup == null) {
            byGroup = new HashMap<>();
            bests.put(key, byGroup);
        }
        Skyline<Boolean> b = byGroup.get(group == null ? NO_INTERVAL : group);
        if (b == null) {
            b = new Skyline<>(best.length);
            byGroup.put(group == null ? NO_INTERVAL : group, b);
        }
        b.offer(best, p.pointIndex(), p.planIndex(), () -> Boolean.TRUE);
    }

    /** Adds every skyline of {@code other}; the result is the fold of the union. */
    public void merge(FrontierFold other) {
        for (Map.Entry<Long, Skyline<Row>> e : other.frontiers.entrySet()) {
            frontiers.computeIfAbsent(e.getKey(), k -> new Skyline<>(e.getValue().dimensions())).merge(e.getValue());
        }
        for (Map.Entry<Long, HashMap<String, Skyline<Boolean>>> e : other.bests.entrySet()) {
            HashMap<String, Skyline<Boolean>> mine = bests.computeIfAbsent(e.getKey(), k -> new HashMap<>());
            for (Map.Entry<String, Skyline<Boolean>> g : e.getValue().entrySet()) {
                mine.computeIfAbsent(g.getKey(), k -> new Skyline<>(g.getValue().dimensions())).merge(g.getValue());
            }
        }
    }

    public boolean isEmpty() {
        return frontiers.isEmpty();
    }

    public void clear() {
        frontiers.clear();
        bests.clear();
    }

    /** The frontier skylines by group key. */
    public Map<Long, Skyline<Row>> frontiers() {
        return frontiers;
    }

    /**
     * Per frontier row of group {@code key} (in {@link Skyline#entries()} order), whether no row of another interval
     * group could dominate it within the intervals.
     */
    boolean[] robust(long key, List<Skyline.Entry<Row>> rows, IntervalEnds ends, int objectives) {
        TreeMap<String, Skyline<Boolean>> byGroup = new TreeMap<>(bests.getOrDefault(key, new HashMap<>()));
        List<String> names = new ArrayList<>(byGroup.keySet());
        List<double[]> vectors = new ArrayList<>();
        List<Integer> groups = new ArrayList<>();
        for (Map.Entry<String, Skyline<Boolean>> g : byGroup.entrySet()) {
            for (Skyline.Entry<Boolean> e : g.getValue().entries()) {
                vectors.add(e.minimised());
                groups.add(names.indexOf(g.getKey()));
            }
        }
        double[][] bestVectors = vectors.toArray(new double[0][]);
        int[] bestGroups = groups.stream().mapToInt(Integer::intValue).toArray();
        int interval = INTERVAL_GROUP_COLUMN;
        boolean[] out = new boolean[rows.size()];
        double[] worst = new double[objectives];
        for (int r = 0; r < out.length; r++) {
            Row row = rows.get(r).payload();
            ends.worst(row, worst);
            String group = row.isNullAt(interval) ? NO_INTERVAL : row.getString(interval);
            out[r] = RobustDominance.robust(worst, names.indexOf(group), bestVectors, bestGroups);
        }
        return out;
    }
}
