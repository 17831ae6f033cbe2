package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sweep.SweepJob;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/** {@code ridgeline sweep FILE}: validate, estimate, run on Spark, commit, summarise. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a sweep file on Spark and write points, frontier and runs as Parquet.")
public final class SweepCommand implements Callable<Integer> {
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    @Parameters(paramLabel = "FILE", description = "The sweep file (YAML or JSON).")
    Path file;

    @Option(names = "--out", defaultValue = "results", description = "Output directory (default: ${DEFAULT-VALUE}).")
    String out;

    @Option(names = "--run-id", description = "Run id (default: NAME-yyyyMMddTHHmmssZ). Reusing one replaces that "
            + "run atomically.")
    String runId;

    @Option(names = "--yes", description = "Run even when the grid is above --max-points or the estimate above "
            + "--max-minutes.")
    boolean yes;

    @Option(names = "--dry-run", description = "Validate and estimate only; start no Spark.")
    boolean dryRun;

    @Option(names = "--max-points", defaultValue = "5000000", description = "Grid size needing --yes (default: "
            + "${DEFAULT-VALUE}).")
    long maxPoints;

    @Option(names = "--max-minutes", defaultValue = "30", description = "Estimated minutes needing --yes (default: "
            + "${DEFAULT-VALUE}).")
    double maxMinutes;

    @Option(names = "--master", description = "Spark master (default: spark-submit's, else local[*]).")
    String master;

    @Option(names = "--partitions", defaultValue = "0", description = "Spark partitions (default: 4 per core).")
    int partitions;

    @Option(names = "--frontier-lines", defaultValue = "5", description = "Frontier rows shown per group.")
    int frontierLines;

    @Override
    public Integer call() {
        PrintStream console = System.out;
        long t0 = System.nanoTime();
        SweepSpec spec = SweepLoader.load(file);
        String id = runId != null ? runId : spec.name() + "-" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
        if (!RUN_ID.matcher(id).matches()) {
            throw new InvalidInputException(InputError.of("--run-id", "run_id",
                    "letters, digits, '.', '_' or '-' (at most 128)", "'" + id + "'"));
        }
        SparkConf conf = new SparkConf();
        String sparkMaster = master != null ? master : conf.get("spark.master", "local[*]");
        int cores = sparkMaster.startsWith("local") ? Runtime.getRuntime().availableProcessors()
                : conf.getInt("spark.cores.max", Runtime.getRuntime().availableProcessors());
        console.printf("sweep %s (%s)%n", spec.name(), file);
        console.printf(Locale.ROOT, "  grid: %,d points = %d models x %d phase settings x %d chips x %d scale-out x "
                        + "%d rates x %d domains x %d topologies x %d cluster sizes x %d plans%n", spec.grid().size(),
                spec.models().size(), spec.workloads().size(), spec.chips().size(), spec.scaleOuts().size(),
                spec.scaleOutGbitPerSecond().size(), spec.scaleUpDomains().size(), spec.topologies().size(),
                spec.gpuCounts().size(), spec.grid().radix(io.ridgeline.engine.sweep.Grid.PLAN));
        console.println("  software: " + spec.describeSoftware());
        if (!spec.derived().isEmpty() || !spec.unbuildable().isEmpty()) {
            console.printf("  derived chips: %d buildable, %d cannot exist%n", spec.derived().size(),
                    spec.unbuildable().size());
            for (String u : spec.unbuildable()) {
                console.println("    skipped " + u);
            }
        }
        SweepJob.Estimate est = SweepJob.estimate(spec, cores, 2.0);
        console.printf(Locale.ROOT, "  plans: %,d engine evaluations (%s, keep %s); objectives %s; points: %s%n",
                est.evaluations(), spec.parallelism().mode().name().toLowerCase(Locale.ROOT),
                spec.parallelism().keep().name().toLowerCase(Locale.ROOT), objectives(spec), spec.points().id());
        console.printf(Locale.ROOT, "  estimate: %.2f ms per point on the driver -> about %s on %d cores, plus "
                + "~15 s Spark start and writing%n", est.secondsPerPoint() * 1e3, duration(est.seconds()), cores);
        boolean tooBig = est.gridPoints() > maxPoints || est.seconds() > maxMinutes * 60;
        if (tooBig && !yes && !dryRun) {
            throw new InvalidInputException(InputError.of(file.toString(), "(grid)", "at most " + maxPoints
                    + " points and " + maxMinutes + " estimated minutes, or --yes", String.format(Locale.ROOT,
                    "%,d points, about %s", est.gridPoints(), duration(est.seconds()))));
        }
        if (dryRun) {
            console.println("  dry run: the sweep is valid; nothing was run.");
            return 0;
        }
        double validateSeconds = (System.nanoTime() - t0) / 1e9;
        // maxToStringFields: the points schema is wide; Spark would warn about truncating plan strings.
        SparkSession.Builder b = SparkSession.builder().appName("ridgeline sweep " + spec.name())
                .config("spark.sql.debug.maxToStringFields", "200");
        if (!conf.contains("spark.master") || master != null) {
            b.master(sparkMaster);
        }
        if (sparkMaster.startsWith("local")) {
            b.config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1");
        }
        SparkSession spark = b.getOrCreate();
        try {
            SweepJob.RunResult r = SweepJob.run(spark, spec, new SweepJob.Options(out, id, partitions, 3000,
                    validateSeconds), console);
            summarise(console, spec, r, (System.nanoTime() - t0) / 1e9);
        } finally {
            spark.stop();
        }
        return 0;
    }

    private static String objectives(SweepSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (SweepSpec.Objective o : spec.objectives()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(o.goal().id()).append(' ').append(o.metric().column());
        }
        return sb.toString();
    }

    static String duration(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    private void summarise(PrintStream c, SweepSpec spec, SweepJob.RunResult r, double wallSeconds) {
        c.printf(Locale.ROOT, "run %s committed: %,d points, %,d evaluations in %.1f s (%,.0f points/s, %,.0f "
                        + "evaluations/s in the Spark job); total %.1f s%n", r.runId(), r.gridPoints(),
                r.evaluations(), r.evaluateSeconds(), r.gridPoints() / r.evaluateSeconds(),
                r.evaluations() / r.evaluateSeconds(), wallSeconds);
        StringBuilder status = new StringBuilder();
        for (PointStatus s : PointStatus.values()) {
            long n = r.statusCounts()[s.ordinal()];
            if (n > 0) {
                status.append(status.length() == 0 ? "" : ", ").append(s.id()).append(' ').append(n);
            }
        }
        c.println("  status: " + status);
        c.printf("  points:   %s (%,d rows)%n", local(r.pointsPath()), r.pointsRows());
        c.printf("  frontier: %s (%,d rows)%n", local(r.frontierPath()), r.frontierRows());
        c.printf("  runs:     %s%n", local(r.runsPath()));
        c.println("frontier (" + objectives(spec) + "):");
        List<Row> rows = r.frontier();
        int group = ResultsSchema.FRONTIER.index("frontier_group");
        String current = null;
        int shown = 0;
        int hidden = 0;
        for (Row row : rows) {
            String g = row.getString(group);
            if (!g.equals(current)) {
                if (hidden > 0) {
                    c.printf("    ... %d more%n", hidden);
                }
                current = g;
                shown = 0;
                hidden = 0;
                c.println("  " + g);
            }
            if (shown++ < frontierLines) {
                c.println("    " + line(spec, row));
            } else {
                hidden++;
            }
        }
        if (hidden > 0) {
            c.printf("    ... %d more%n", hidden);
        }
        if (rows.isEmpty()) {
            c.println("  (empty: no point is feasible within the constraints)");
        }
        c.printf("query:    scripts/ridgeline sql --out %s \"select * from frontier where run_id = '%s'\"%n", out,
                r.runId());
    }

    /** Local paths without Hadoop's "file:" scheme, so they can be pasted into a shell. */
    private static String local(String path) {
        return path.startsWith("file:") ? path.substring("file:".length()) : path;
    }

    private static String line(SweepSpec spec, Row row) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-9s x%-5d %-7s tp%d pp%d dp%d", row.getString(
                        ResultsSchema.POINTS.index("chip")), row.getInt(ResultsSchema.POINTS.index("gpu_count")),
                row.getString(ResultsSchema.POINTS.index("scale_out")),
                row.getInt(ResultsSchema.POINTS.index("tp")), row.getInt(ResultsSchema.POINTS.index("pp")),
                row.getInt(ResultsSchema.POINTS.index("dp"))));
        String topology = row.getString(ResultsSchema.POINTS.index("topology"));
        if (topology != null && !topology.equals("none")) {
            sb.append(' ').append(topology);
        }
        if ("inference".equals(row.getString(ResultsSchema.POINTS.index("phase")))) {
            // inference rows: the static batch and the storage formats instead of training's plan details
            sb.append(" batch").append(row.getInt(ResultsSchema.POINTS.index("global_batch")))
                    .append(" w").append(row.getString(ResultsSchema.POINTS.index("weight_precision")))
                    .append(" kv").append(row.getString(ResultsSchema.POINTS.index("kv_cache_precision")));
        } else {
            int cp = row.getInt(ResultsSchema.POINTS.index("cp"));
            if (cp > 1) {
                sb.append(" cp").append(cp);
            }
            int vpp = row.getInt(ResultsSchema.POINTS.index("vpp"));
            if (vpp > 1) {
                sb.append(" v").append(vpp);
            }
            sb.append(" mb").append(row.getInt(ResultsSchema.POINTS.index("micro_batch")));
            sb.append(' ').append(row.getString(ResultsSchema.POINTS.index("recompute")));
        }
        for (SweepSpec.Objective o : spec.objectives()) {
            Object v = row.get(ResultsSchema.POINTS.index(o.metric().column()));
            sb.append("  ").append(o.metric().column()).append('=').append(v instanceof Double d
                    ? String.format(Locale.ROOT, "%.4g", d) : v);
        }
        if (!row.isNullAt(ResultsSchema.POINTS.index("mfu_fraction"))) {
            sb.append(String.format(Locale.ROOT, "  mfu=%.3f",
                    row.getDouble(ResultsSchema.POINTS.index("mfu_fraction"))));
        }
        return sb.toString();
    }
}
