package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.sweep.SweepSpec.Bound;
import io.ridgeline.engine.sweep.SweepSpec.Objective;

import java.util.ArrayList;
import java.util.List;

/**
 * What makes a point good and what is written: the {@code constraints}, {@code objectives}, {@code frontier} and
 * {@code output} sections. Objectives and bounds must name a column every row of the sweep fills
 * ({@link SweepReader#unfilled}).
 */
final class GoalsReader {
    private final SweepReader r;

    GoalsReader(SweepReader r) {
        this.r = r;
    }

    List<Bound> constraints(SpecNode node) {
        List<Bound> out = new ArrayList<>();
        MapNode m = node == null ? null : r.map(node, "constraints");
        if (m == null) {
            return out;
        }
        r.knownKeys(m, "constraints", "constraints");
        for (String side : r.reference.keys("constraints")) {
            MapNode b = m.get(side) == null ? null : r.map(m.get(side), "constraints." + side);
            if (b == null) {
                continue;
            }
            for (var e : b.values().entrySet()) {
                String path = "constraints." + side + "." + e.getKey();
                Metric metric = Metric.byColumn(e.getKey());
                if (metric == null) {
                    r.errors().add(new InputError(r.source(), b.keyLine(e.getKey()), b.keyColumn(e.getKey()), path,
                            "a result column: " + Names.expectedOneOf(e.getKey(), Metric.columns()),
                            "'" + e.getKey() + "'"));
                    continue;
                }
                Double limit = r.number(e.getValue(), path, -Double.MAX_VALUE, Double.MAX_VALUE, true);
                String missing = r.unfilled(metric);
                if (missing != null) {
                    r.errors().add(new InputError(r.source(), b.keyLine(e.getKey()), b.keyColumn(e.getKey()), path,
                            "a column every row of the sweep fills (" + missing + ")", "'" + e.getKey() + "'"));
                    continue;
                }
                if (limit != null) {
                    out.add(new Bound(metric, side.equals("max"), limit));
                }
            }
        }
        return out;
    }

    List<Objective> objectives(SpecNode own) {
        SpecNode node = own != null ? own : r.reference.at("objectives");
        List<String> goals = r.reference.keys("objectives");
        List<Objective> out = r.list(node, "objectives", (n, path) -> {
            MapNode m = r.map(n, path);
            if (m == null) {
                return null;
            }
            r.keys(m, path, goals);
            if (m.values().size() != 1) {
                r.error(m, path, "exactly one of max: COLUMN or min: COLUMN", m.values().size() + " keys");
                return null;
            }
            String goalKey = m.values().keySet().iterator().next();
            if (!goals.contains(goalKey)) {
                return null;
            }
            String col = r.catalogueName(m.get(goalKey), path + "." + goalKey, Metric.columns());
            String missing = col == null ? null : r.unfilled(Metric.byColumn(col));
            if (missing != null) {
                r.error(m.get(goalKey), path + "." + goalKey, "a column every row of the sweep fills (" + missing
                        + ")", "'" + col + "'");
                return null;
            }
            return col == null ? null : new Objective(Metric.byColumn(col), goalKey.equals("max") ? Goal.MAX
                    : Goal.MIN);
        });
        ListNode l = node instanceof ListNode ln ? ln : null;
        for (int i = 0; i < out.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (out.get(i).metric() == out.get(j).metric()) {
                    r.error(l == null ? node : l.items().get(i), "objectives[" + i + "]",
                            "each column once (objectives[" + j + "] already uses it)",
                            "'" + out.get(i).metric().column() + "' again");
                }
            }
        }
        return out;
    }

    List<GroupColumn> groupBy(SpecNode node) {
        MapNode frontier = node == null ? null : r.map(node, "frontier");
        if (frontier != null) {
            r.knownKeys(frontier, "frontier", "frontier");
        }
        return r.list(r.value(frontier, "frontier", "group_by"), "frontier.group_by", (n, p) -> {
            String s = r.catalogueName(n, p, GroupColumn.columns());
            return s == null ? null : GroupColumn.byColumn(s);
        }, true);
    }

    SweepSpec.PointsPolicy points(SpecNode node) {
        MapNode output = node == null ? null : r.map(node, "output");
        if (output != null) {
            r.knownKeys(output, "output", "output");
        }
        SweepSpec.PointsPolicy p = r.enumValue(r.value(output, "output", "points"), "output.points",
                SweepSpec.PointsPolicy.class);
        return p == null ? SweepSpec.PointsPolicy.FEASIBLE : p;
    }

    /** {@code output.sensitivity}: whether rows gain the sensitivity columns (default false). */
    boolean sensitivity(SpecNode node) {
        MapNode output = node == null ? null : r.map(node, "output");
        Boolean on = r.bool(r.value(output, "output", "sensitivity"), "output.sensitivity");
        return on != null && on;
    }

    /** {@code output.interval_coverage}: the coverage of the interval columns, in (0, 1) (default 0.8). */
    double intervalCoverage(SpecNode node) {
        MapNode output = node == null ? null : r.map(node, "output");
        Double c = r.number(r.value(output, "output", "interval_coverage"), "output.interval_coverage", 0, 0.999,
                false);
        return c == null ? Double.NaN : c;
    }

    /** The {@code cost:} section: TcoParameters overrides (each range-checked) and the run's token budget. */
    CostSpec cost(SpecNode node) {
        MapNode m = node == null ? null : r.map(node, "cost");
        if (m != null) {
            r.knownKeys(m, "cost", "cost");
        }
        return new CostSpec(new TcoParameters(number(m, "server_overhead_factor", 1, 100, true),
                number(m, "interconnect_fraction", 0, 0.99, true), number(m, "amortization_years", 0, 50, false),
                number(m, "server_power_factor", 1, 100, true), number(m, "load_fraction", 0, 1, false),
                number(m, "pue", 1, 10, true), number(m, "usd_per_kwh", 0, 100, true),
                number(m, "availability_fraction", 0, 1, false)), number(m, "tokens", 0, 1e18, false));
    }

    /** A cost number, range-checked; the reference default when absent or invalid. */
    private double number(MapNode m, String key, double min, double max, boolean inclusive) {
        double fallback = Double.parseDouble(((SpecNode.Scalar) r.reference.at("cost." + key)).text());
        if (m == null || m.get(key) == null) {
            return fallback;
        }
        Double v = r.number(m.get(key), "cost." + key, min, max, inclusive);
        return v == null ? fallback : v;
    }
}
