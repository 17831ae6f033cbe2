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

    /** One frontier group: its frontier and its best-vector skylines by interval group. */
    private static final class Part implements Serializable {
        private static final long serialVersionUID = 1L;
        final Skyline<Row> frontier;
        final HashMap<String, Skyline<Boolean>> bests = new HashMap<>();

        Part(int dimensions) {
            frontier = new Skyline<>(dimensions);
        }
    }

    private final HashMap<Long, Part> parts = new HashMap<>();
    /** The part last offered to: rows of one group come in runs, so most offers need no lookup (and no boxing). */
    private transient long lastKey;
    private transient Part last;
    private transient String lastGroup;
    private transient Skyline<Boolean> lastBests;

    /** Folds an ok row with its objective vector and its best vector into group {@code key}. */
    void offer(ResultRow p, long key, double[] objective, double[] best) {
        Part part = last;
        if (part == null || key != lastKey) {
            part = parts.get(key);
            if (part == null) {
                part = new Part(objective.length);
                parts.put(key, part);
            }
            last = part;
            lastKey = key;
            lastBests = null;
        }
        part.frontier.offer(objective, p.pointIndex(), p.planIndex(), () -> PointRows.toRow(p));
        String group = p.text(ResultRow.Text.INTERVAL_GROUP);
        if (group == null) {
            group = NO_INTERVAL;
        }
        Skyline<Boolean> b = lastBests;
        if (b == null || !group.equals(lastGroup)) {
            b = part.bests.get(group);
            if (b == null) {
                b = new Skyline<>(best.length);
                part.bests.put(group, b);
            }
            lastBests = b;
            lastGroup = group;
        }
        b.offer(best, p.pointIndex(), p.planIndex(), () -> Boolean.TRUE);
    }

    /** Adds every skyline of {@code other}; the result is the fold of the union. */
    public void merge(FrontierFold other) {
        for (Map.Entry<Long, Part> e : other.parts.entrySet()) {
            Part theirs = e.getValue();
            Part mine = parts.computeIfAbsent(e.getKey(), k -> new Part(theirs.frontier.dimensions()));
            mine.frontier.merge(theirs.frontier);
            for (Map.Entry<String, Skyline<Boolean>> g : theirs.bests.entrySet()) {
                mine.bests.computeIfAbsent(g.getKey(), k -> new Skyline<>(g.getValue().dimensions()))
                        .merge(g.getValue());
            }
        }
        last = null;
    }

    public boolean isEmpty() {
        return parts.isEmpty();
    }

    public void clear() {
        parts.clear();
        last = null;
    }

    /** The frontier skylines by group key. */
    public Map<Long, Skyline<Row>> frontiers() {
        Map<Long, Skyline<Row>> out = new HashMap<>();
        for (Map.Entry<Long, Part> e : parts.entrySet()) {
            out.put(e.getKey(), e.getValue().frontier);
        }
        return out;
    }

    /**
     * Per frontier row of group {@code key} (in {@link Skyline#entries()} order), whether no row of another interval
     * group could dominate it within the intervals.
     */
    boolean[] robust(long key, List<Skyline.Entry<Row>> rows, IntervalEnds ends, int objectives) {
        Part part = parts.get(key);
        TreeMap<String, Skyline<Boolean>> byGroup = new TreeMap<>(part == null ? Map.of() : part.bests);
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
