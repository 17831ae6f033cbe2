package io.ridgeline.jobs.cli;

import io.ridgeline.engine.evaluation.Resource;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.sweep.Metric;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The analysis part of {@code eval}'s text: energy per token by component with average power against TDP, and with
 * {@code --sensitivity} the +10% table ranked by speed-up per dollar (docs/SENSITIVITY.md).
 */
final class EvalAnalysis {
    private static final Metric[] ENERGY = {Metric.ENERGY_COMPUTE_PER_TOKEN_J, Metric.ENERGY_DRAM_PER_TOKEN_J,
        Metric.ENERGY_SCALE_UP_PER_TOKEN_J, Metric.ENERGY_SCALE_OUT_PER_TOKEN_J, Metric.ENERGY_STATIC_PER_TOKEN_J};
    private static final String[] ENERGY_LABELS = {"compute (incl. SRAM/L2)", "DRAM", "scale-up", "scale-out",
        "static"};

    private EvalAnalysis() {
    }

    /** Energy per token by component and the share of each; empty when the row was not timed. */
    static String energy(ResultRow r) {
        double total = r.metric(Metric.ENERGY_PER_TOKEN_J);
        if (Double.isNaN(r.metric(Metric.ENERGY_COMPUTE_PER_TOKEN_J))) {
            return "";
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n%-28s %12s %8s%n", "energy per token", "J",
                "share"));
        for (int i = 0; i < ENERGY.length; i++) {
            double j = r.metric(ENERGY[i]);
            sb.append(String.format(Locale.ROOT, "%-28s %12.4g %7.1f%%%n", ENERGY_LABELS[i], j, j / total * 100));
        }
        sb.append(String.format(Locale.ROOT, "%-28s %12.4g%n", "total", total));
        sb.append(String.format(Locale.ROOT, "average power %.1f%% of TDP%n",
                r.metric(Metric.POWER_OF_TDP_FRACTION) * 100));
        return sb.toString();
    }

    /** The resources ranked by re-searched speed-up per kUSD (unpriced ones last, by speed-up); empty when off. */
    static String sensitivity(ResultRow r) {
        if (Double.isNaN(r.metric(Resource.FLOPS.fixedPlan())) && r.text(ResultRow.Text.INVEST_FIRST) == null
                && Double.isNaN(r.metric(Resource.FLOPS.searched()))) {
            return "";
        }
        List<Resource> ranked = ranked(r);
        boolean inference = r.workload().inference();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n+10%% of one resource (ranked by "
                + "speed-up per kUSD; invest first: %s, per W: %s)%n", r.text(ResultRow.Text.INVEST_FIRST),
                r.text(ResultRow.Text.INVEST_FIRST_PER_W)));
        sb.append(String.format(Locale.ROOT, "%-32s %10s %10s %10s %12s %12s%n", "resource", "same plan",
                "re-search", inference ? "TPOT" : "", "per kUSD", "per kW"));
        for (Resource res : ranked) {
            sb.append(String.format(Locale.ROOT, "%-32s %9.2f%% %9.2f%% %10s %12s %12s%n", res.label(),
                    r.metric(res.fixedPlan()) * 100, r.metric(res.searched()) * 100,
                    inference ? String.format(Locale.ROOT, "%.2f%%", r.metric(res.tpot()) * 100) : "",
                    per(r.metric(res.perKiloUsd())), per(r.metric(res.perKiloWatt()))));
        }
        return sb.toString();
    }

    /** Resources in the table's order: priced by speed-up per kUSD, then the unpriced by speed-up. */
    static List<Resource> ranked(ResultRow r) {
        List<Resource> out = new ArrayList<>(List.of(Resource.values()));
        out.sort(Comparator.comparingDouble((Resource x) -> Double.isNaN(r.metric(x.perKiloUsd())) ? 1 : 0)
                .thenComparingDouble(x -> -nanToMin(r.metric(x.perKiloUsd())))
                .thenComparingDouble(x -> -nanToMin(r.metric(x.searched()))));
        return out;
    }

    private static double nanToMin(double v) {
        return Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v;
    }

    private static String per(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3g%%", v * 100);
    }
}
