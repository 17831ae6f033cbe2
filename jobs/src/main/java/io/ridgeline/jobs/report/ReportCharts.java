package io.ridgeline.jobs.report;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.workload.ModelCatalog;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeriesCollection;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The charts of a run report, each drawn by the same chart classes as {@code ridgeline plot} and inlined as SVG:
 * frontier scatter, step-time breakdown, roofline with the frontier's operators, bottleneck histogram and memory
 * headroom. Each method returns the parts of its section, with a sentence instead of a chart when it does not apply.
 */
final class ReportCharts {
    /** Bars per breakdown or memory chart: more would need a page-long chart; the table has every row. */
    static final int MAX_BARS = 40;
    /** Points drawn in the scatter: beyond this the SVG grows past what a page should carry. */
    static final int MAX_SCATTER_POINTS = 5_000;
    /** Roofline charts per report (one per chip and precision, the chips with most frontier rows first). */
    static final int MAX_ROOFLINES = 4;
    static final int WIDTH_PX = 1000;

    private final RunQuery q;
    private final List<String[]> objectives;
    private int charts;

    /** @param objectives the run's objectives as {direction, column} pairs, e.g. {max, tokens_per_s} */
    ReportCharts(RunQuery q, List<String[]> objectives) {
        this.q = q;
        this.objectives = objectives;
    }

    private ReportPage.Chart chart(org.jfree.chart.JFreeChart chart, int heightPx, String caption) {
        String id = "chart-" + (++charts);
        return new ReportPage.Chart(id, ChartImage.svgElement(chart, WIDTH_PX, heightPx, id), caption);
    }

    /** Axes from the objectives: y the first, x the second (or cost_usd, or tokens_per_s, with one objective). */
    List<ReportPage.Part> scatter() throws SQLException {
        String source = q.views().contains("points") ? "points" : "frontier";
        Set<String> available = q.columns(source);
        String y = objectives.isEmpty() ? "tokens_per_s" : objectives.get(0)[1];
        String x = objectives.size() > 1 ? objectives.get(1)[1] : y.equals("cost_usd") ? "tokens_per_s" : "cost_usd";
        if (!available.contains(x) || !available.contains(y) || !available.contains("chip")) {
            return List.of(new ReportPage.Text("No scatter: " + source + " lacks " + x + " or " + y + "."));
        }
        String feasible = available.contains("status") ? "status = 'ok'" : null;
        List<String> cols = new ArrayList<>(new LinkedHashSet<>(List.of(x, y, "chip")));
        String order = available.contains("point_index") ? "point_index, plan_index" : null;
        ResultRows points = q.rows(source, cols, feasible, order, MAX_SCATTER_POINTS + 1);
        boolean cut = points.size() > MAX_SCATTER_POINTS;
        if (cut) {
            points = new ResultRows(points.table(), points.columns(), points.rows().subList(0, MAX_SCATTER_POINTS));
        }
        List<String> fcols = new ArrayList<>(cols);
        fcols.add("frontier_group");
        ResultRows frontier = q.rows("frontier", fcols, null, "frontier_group", 0);
        XYSeriesCollection ds = FrontierChart.dataset(points, frontier, x, y, "chip");
        if (ds.getSeriesCount() == 0) {
            return List.of(new ReportPage.Text("No scatter: no row has numbers in both " + x + " and " + y + "."));
        }
        String what = points.size() + (cut ? " (the first by point index; the run has more)" : "") + " feasible "
                + (source.equals("points") ? "points" : "frontier rows");
        return List.of(chart(FrontierChart.chart(ds, source, x, y, "Frontier: " + y + " vs " + x, what
                        + ", coloured by chip", FrontierChart.Scale.AUTO), 600,
                "Every feasible point of the run; the dashed black lines join each frontier group's Pareto points "
                        + "(the same chart as ridgeline plot frontier --x " + x + " --y " + y + ")."));
    }

    /** The frontier's training rows, fastest first per model. */
    List<ReportPage.Part> breakdown(boolean anyTraining) throws SQLException {
        Set<String> available = q.columns("frontier");
        if (!anyTraining || !available.contains("step_time_s")) {
            return List.of(new ReportPage.Text("Inference rows have no step-time breakdown: their latencies (ttft_s, "
                    + "tpot_s, e2e_latency_s) are in the frontier table and the memory chart below shows their KV "
                    + "cache."));
        }
        List<String> cols = labelColumns(available);
        BreakdownChart.columns().stream().filter(available::contains).forEach(cols::add);
        String training = available.contains("phase") ? "step_time_s IS NOT NULL AND phase = 'training'"
                : "step_time_s IS NOT NULL";
        ResultRows rows = q.rows("frontier", cols, training, "model, step_time_s", MAX_BARS + 1);
        String shown = shown(rows.size(), "frontier rows");
        rows = first(rows, MAX_BARS);
        DefaultCategoryDataset ds = BreakdownChart.dataset(rows);
        if (ds.getRowCount() == 0) {
            return List.of(new ReportPage.Text("No step-time components in the frontier rows."));
        }
        int height = Math.max(320, StackedBarChart.heightForSubLabels(ds.getColumnCount()));
        return List.of(chart(BreakdownChart.chart(ds, "Step-time breakdown (frontier)", shown + ", fastest first "
                + "per model; bars sum to step_time_s", height), height, "Exposed time per optimizer step by "
                + "component, with each bar's shares beside its plan (ridgeline plot breakdown)."));
    }

    /** One roofline per catalogue chip (and math precision) of the frontier, with its rows' GEMMs on it. */
    List<ReportPage.Part> roofline(ResultRows frontierRows) {
        HardwareCatalog catalog = HardwareCatalog.bundled();
        Map<String, List<Integer>> byChip = new LinkedHashMap<>();
        Set<String> derived = new LinkedHashSet<>();
        for (int i = 0; i < frontierRows.size(); i++) {
            String chip = frontierRows.text(i, "chip");
            if (catalog.hasChip(chip)) {
                byChip.computeIfAbsent(chip, k -> new ArrayList<>()).add(i);
            } else {
                derived.add(chip);
            }
        }
        List<ReportPage.Part> parts = new ArrayList<>();
        List<Object[]> table = new ArrayList<>();
        List<Map.Entry<String, List<Integer>>> chips = new ArrayList<>(byChip.entrySet());
        chips.sort((a, b) -> b.getValue().size() - a.getValue().size());
        int drawn = 0;
        for (Map.Entry<String, List<Integer>> e : chips) {
            Chip chip = catalog.chip(e.getKey());
            List<Object[]> sub = new ArrayList<>();
            e.getValue().forEach(i -> sub.add(frontierRows.rows().get(i)));
            List<FrontierOperators.Operator> ops = FrontierOperators.of(new ResultRows(frontierRows.table(),
                    frontierRows.columns(), sub), ModelCatalog.bundled());
            Map<Precision, List<FrontierOperators.Operator>> byPrecision = new LinkedHashMap<>();
            ops.stream().filter(o -> chip.supports(o.precision())).forEach(o -> byPrecision.computeIfAbsent(
                    o.precision(), k -> new ArrayList<>()).add(o));
            for (Map.Entry<Precision, List<FrontierOperators.Operator>> pe : byPrecision.entrySet()) {
                Precision p = pe.getKey();
                double ridge = RooflineChart.sustainedFlopsPerSecond(chip, p) / chip.effectiveMemoryBytesPerSecond();
                XYSeriesCollection ds = RooflineChart.operatorDataset(chip, p, pe.getValue());
                GemmModel gemm = new GemmModel(chip);
                for (FrontierOperators.Operator o : pe.getValue()) {
                    RooflineChart.Gemm g = o.shape();
                    table.add(new Object[]{chip.id(), o.model(), o.name(), g.m(), g.n(), g.k(), p.id(),
                            g.intensity(p), gemm.achievedFlopsPerSecond(g.m(), g.n(), g.k(), p) / 1e12,
                            g.intensity(p) < ridge ? "memory" : "compute"});
                }
                if (drawn++ < MAX_ROOFLINES) {
                    parts.add(chart(RooflineChart.chart(ds, chip, p, List.of(), "Roofline: " + chip.name() + " ("
                            + p.id() + ") with the frontier's GEMMs"), 600, "Datasheet and sustained roofs of "
                            + chip.id() + "; one point per distinct linear-layer GEMM of the frontier rows on it, "
                            + "at its arithmetic intensity and the throughput the engine's GEMM model gives it."));
                }
            }
        }
        if (drawn > MAX_ROOFLINES) {
            parts.add(new ReportPage.Text((drawn - MAX_ROOFLINES) + " more chip/precision rooflines left out; "
                    + "their operators are in the table."));
        }
        if (!derived.isEmpty()) {
            parts.add(new ReportPage.Text("Derived chips have no catalogue roofline: " + String.join(", ", derived)
                    + "."));
        }
        if (table.isEmpty()) {
            parts.add(new ReportPage.Text("No frontier row names a catalogue chip and model: no roofline."));
            return parts;
        }
        parts.add(new ReportPage.Table("operators", new ResultRows("operators", List.of("chip", "model",
                "operator", "M", "N", "K", "precision", "intensity [FLOP/byte]", "attained [TFLOP/s]", "bound"),
                table), true));
        return parts;
    }

    /** Points per bottleneck (infeasible points by status), stacked by chip. */
    List<ReportPage.Part> bottlenecks() throws SQLException {
        String source = q.views().contains("points") ? "points" : "frontier";
        Set<String> available = q.columns(source);
        if (!available.contains("bottleneck") || !available.contains("chip")) {
            return List.of(new ReportPage.Text("No bottleneck column in " + source + "."));
        }
        List<String> group = available.contains("status") ? List.of("status", "bottleneck", "chip")
                : List.of("bottleneck", "chip");
        ResultRows counts = q.counts(source, group, null);
        Map<String, Map<String, Long>> byLabel = new LinkedHashMap<>();
        Set<String> chips = new java.util.TreeSet<>();
        for (int i = 0; i < counts.size(); i++) {
            String status = counts.has("status") ? counts.text(i, "status") : "ok";
            // Infeasible points have no step to be bound by: their status is the reason.
            String label = status.equals("ok") ? counts.text(i, "bottleneck") : status + " (infeasible)";
            label = label.isEmpty() ? "(none)" : label;
            chips.add(counts.text(i, "chip"));
            byLabel.computeIfAbsent(label, k -> new LinkedHashMap<>()).merge(counts.text(i, "chip"),
                    (long) counts.number(i, "n"), Long::sum);
        }
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        Map<String, Long> total = new LinkedHashMap<>();
        for (String chip : chips) {
            for (Map.Entry<String, Map<String, Long>> e : byLabel.entrySet()) {
                long n = e.getValue().getOrDefault(chip, 0L);
                ds.addValue(n, chip, e.getKey());
                total.merge(e.getKey(), n, Long::sum);
            }
        }
        if (ds.getColumnCount() == 0) {
            return List.of(new ReportPage.Text("No rows in " + source + "."));
        }
        StringBuilder text = new StringBuilder();
        total.forEach((k, v) -> text.append(text.length() == 0 ? "" : ", ").append(k).append(": ").append(v));
        return List.of(chart(SeriesChart.chart(ds, SeriesChart.Kind.STACKED, "What bounds each " + (source.equals(
                        "points") ? "point" : "frontier row"), "the largest share of step time (training) or of "
                        + "latency (inference); infeasible points by their status", "bottleneck", source + " rows",
                        false, false), 450, "Rows of " + source + " per bottleneck, stacked by chip: " + text + "."));
    }

    /** Resident bytes of the most loaded device against its capacity, for the frontier rows. */
    List<ReportPage.Part> memory(String order) throws SQLException {
        Set<String> available = q.columns("frontier");
        if (!available.contains("hbm_capacity_bytes") || !available.contains("hbm_bytes")) {
            return List.of(new ReportPage.Text("No memory columns in the frontier."));
        }
        List<String> cols = labelColumns(available);
        MemoryChart.columns().stream().filter(available::contains).filter(c -> !cols.contains(c)).forEach(cols::add);
        ResultRows rows = q.rows("frontier", cols, "hbm_capacity_bytes > 0", order, MAX_BARS + 1);
        String shown = shown(rows.size(), "frontier rows");
        DefaultCategoryDataset ds = MemoryChart.dataset(first(rows, MAX_BARS));
        if (ds.getColumnCount() == 0) {
            return List.of(new ReportPage.Text("No frontier row has a memory capacity."));
        }
        int height = Math.max(320, StackedBarChart.heightForSubLabels(ds.getColumnCount()));
        return List.of(chart(MemoryChart.chart(ds, "Memory headroom (frontier)", shown + " in table order; the "
                + "grey end of each bar is free capacity", height), height, "What the most loaded device holds "
                + "(weights, gradients, optimizer state, activations, KV cache, framework reserve) against its "
                + "capacity."));
    }

    private static List<String> labelColumns(Set<String> available) {
        List<String> cols = new ArrayList<>();
        for (String c : List.of("model", "phase", "chip", "gpu_count", "tp", "pp", "dp", "cp", "ep", "micro_batch",
                "global_batch", "kv_cache_precision", "step_time_s")) {
            if (available.contains(c)) {
                cols.add(c);
            }
        }
        return cols;
    }

    private static String shown(int rows, String what) {
        return rows > MAX_BARS ? String.format(Locale.ROOT, "the first %d %s (of more)", MAX_BARS, what)
                : rows + " " + what;
    }

    private static ResultRows first(ResultRows rows, int n) {
        return rows.size() <= n ? rows : new ResultRows(rows.table(), rows.columns(), rows.rows().subList(0, n));
    }
}
