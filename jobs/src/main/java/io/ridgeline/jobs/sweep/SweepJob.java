package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.calibration.CalibrationProfile;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.GroupColumn;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs one sweep on Spark: chunk descriptors ({@code spark.range(numChunks)}) become grid index ranges on executors,
 * points are written as Parquet while per-partition skylines accumulate, the driver merges them per frontier group
 * and writes the frontier and the runs manifest, and {@link RunCommitter} makes the three tables visible at once.
 */
public final class SweepJob {
    /** Engine evaluations per chunk: big enough to amortise the per-chunk overhead, small enough to balance. */
    static final long EVALUATIONS_PER_CHUNK = 20_000;
    static final List<String> TABLES = List.of("points", "frontier", "runs");

    /**
     * @param startNanos  {@link System#nanoTime()} when the command started: {@code total_s} counts from there
     * @param startedAt   the same instant as wall-clock time ({@code started_at})
     */
    public record Options(String outDir, String runId, int partitions, long progressIntervalMillis,
                          double validateSeconds, long startNanos, Instant startedAt) {
        /** A run whose clock starts now (tests, embedding). */
        public Options(String outDir, String runId, int partitions, long progressIntervalMillis,
                       double validateSeconds) {
            this(outDir, runId, partitions, progressIntervalMillis, validateSeconds, System.nanoTime(),
                    Instant.now());
        }
    }

    /** What a committed run produced. */
    public record RunResult(String runId, String pointsPath, String frontierPath, String runsPath, long gridPoints,
                            long evaluations, long pointsRows, long frontierRows, long[] statusCounts,
                            double evaluateSeconds, double totalSeconds, List<Row> frontier, int partitions) {
    }

    private SweepJob() {
    }

    /** Takes the run id's lock, runs the sweep and commits it. */
    public static RunResult run(SparkSession spark, SweepSpec spec, Options options, PrintStream console) {
        return run(spark, spec, options, console, RunCommitter.begin(spark.sparkContext().hadoopConfiguration(),
                options.outDir(), options.runId()));
    }

    /**
     * Runs the sweep into a committer that already holds the run id's lock (the CLI takes it before Spark starts, so
     * a second run of a held id fails in a second, not after Spark's start-up). Commits, or aborts on failure.
     */
    public static RunResult run(SparkSession spark, SweepSpec spec, Options options, PrintStream console,
                                RunCommitter committer) {
        boolean committed = false;
        try {
            RunResult r = evaluateAndCommit(spark, spec, options, console, committer);
            committed = true;
            return r;
        } finally {
            if (!committed) {
                committer.abort();
            }
        }
    }

    private static RunResult evaluateAndCommit(SparkSession spark, SweepSpec spec, Options options,
                                               PrintStream console, RunCommitter committer) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        Grid grid = spec.grid();
        long n = grid.size();
        int cores = Math.max(1, jsc.defaultParallelism());
        Evaluator probe = SweepCalibration.evaluator(spec);
        long plansPerPoint = Math.max(1, probe.plansAt(0));
        // 4 tasks per core, up to 32 tasks for big grids: progress moves per finished task and small tasks balance,
        // but every task warms up its own evaluator (plan lists, engine caches), which small sweeps notice.
        long targetTasks = Math.max(4L * cores, Math.min(32, n * plansPerPoint / 2000));
        if (spec.points() != SweepSpec.PointsPolicy.NONE) {
            // Writing tasks also pay a fresh Parquet file and warm-up each: 2 per core, ~200k evaluations per task
            // beyond that, at most 16 (750k written points: 32 tasks 89-112k points/s, 4 tasks 118-138k; 12M
            // points: 32 tasks 281-304k, 16 tasks 320k, 4-8 tasks 314-325k; docs/PERFORMANCE.md).
            targetTasks = Math.max(2L * cores, Math.min(16, n * plansPerPoint / 200_000));
        }
        long perChunk = Math.max(1, EVALUATIONS_PER_CHUNK / plansPerPoint);
        perChunk = Math.min(perChunk, Math.max(1, (n + targetTasks - 1) / targetTasks));
        long chunks = (n + perChunk - 1) / perChunk;
        int partitions = options.partitions() > 0 ? options.partitions()
                : (int) Math.min(chunks, Math.min(10_000, targetTasks));

        FrontierAccumulator frontierAcc = new FrontierAccumulator();
        CountsAccumulator countsAcc = new CountsAccumulator(EvaluatePartition.WIDTH);
        jsc.sc().register(frontierAcc, "ridgeline-frontier");
        jsc.sc().register(countsAcc, "ridgeline-counts");
        String group = "ridgeline-" + options.runId();
        jsc.setJobGroup(group, "sweep " + spec.name(), false);

        JavaRDD<Long> chunkIds = spark.range(0, chunks, 1, partitions).javaRDD();
        long tEval = System.nanoTime();
        try (Progress ignored = new Progress(jsc, group, n, console, options.progressIntervalMillis())) {
            if (spec.points() == SweepSpec.PointsPolicy.NONE) {
                chunkIds.mapPartitions(new EvaluatePartition(spec, perChunk, frontierAcc, countsAcc)).count();
                spark.createDataFrame(List.<Row>of(), SparkSchemas.of(ResultsSchema.POINTS)).coalesce(1)
                        .write().mode(SaveMode.ErrorIfExists).parquet(committer.stagingPath("points"));
            } else {
                // Executors write their own Parquet files: Spark SQL's row conversion cost more than the engine.
                String points = committer.stagingPath("points");
                chunkIds.foreachPartition(new WritePointsPartition(spec, perChunk, frontierAcc, countsAcc, points,
                        new SerializableConfiguration(jsc.hadoopConfiguration())));
                try {
                    WritePointsPartition.finish(jsc.hadoopConfiguration(), points);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("Cannot finish the points table in " + points, e);
                }
            }
        }
        double evaluateSeconds = (System.nanoTime() - tEval) / 1e9;
        jsc.clearJobGroup();

        long tFrontier = System.nanoTime();
        List<Row> frontier = frontierRows(spec, frontierAcc.value());
        spark.createDataFrame(frontier, SparkSchemas.of(ResultsSchema.FRONTIER)).coalesce(1).write()
                .mode(SaveMode.ErrorIfExists).parquet(committer.stagingPath("frontier"));
        double frontierSeconds = (System.nanoTime() - tFrontier) / 1e9;

        long[] counts = countsAcc.value().clone();
        long[] status = java.util.Arrays.copyOf(counts, PointStatus.values().length);
        long statusTotal = 0;
        for (long s : status) {
            statusTotal += s;
        }
        if (statusTotal != n) {
            throw new IllegalStateException("evaluated " + statusTotal + " points of a grid of " + n);
        }
        // The one measurement of the run's total: the manifest's total_s and the console's "total" (RunResult).
        double totalSeconds = (System.nanoTime() - options.startNanos()) / 1e9;
        List<Object> run = new ArrayList<>(java.util.Arrays.asList(spec.name(), spec.source(), spec.specSha256(),
                Versions.catalogSha256(), ResultsSchema.VERSION, Versions.codeVersion(),
                Timestamp.from(options.startedAt()), Timestamp.from(Instant.now()), options.validateSeconds(),
                evaluateSeconds, frontierSeconds, totalSeconds, n, counts[EvaluatePartition.EVALUATIONS],
                counts[EvaluatePartition.POINTS_ROWS], (long) frontier.size(), status[PointStatus.OK.ordinal()],
                status[PointStatus.MEMORY_CAPACITY.ordinal()], status[PointStatus.PLAN_SHAPE.ordinal()],
                status[PointStatus.GPU_COUNT.ordinal()], status[PointStatus.NO_VALID_PLAN.ordinal()],
                status[PointStatus.CONSTRAINT.ordinal()], spec.points().id(), jsc.master(), partitions,
                objectives(spec), groupBy(spec)));
        run.addAll(List.of(RecordedCosts.of(spec).values()));
        CalibrationProfile profile = SweepCalibration.profile(spec);
        run.add(profile == null ? null : spec.calibration().describe());
        run.add(profile == null ? null : profile.codeVersion());
        run.add(SweepCalibration.intervals(spec).coverage());
        spark.createDataFrame(List.of(RowFactory.create(run.toArray())), SparkSchemas.of(ResultsSchema.RUNS))
                .coalesce(1).write().mode(SaveMode.ErrorIfExists).parquet(committer.stagingPath("runs"));
        committer.commit(TABLES);
        return new RunResult(options.runId(), committer.committedPath("points"),
                committer.committedPath("frontier"), committer.committedPath("runs"), n,
                counts[EvaluatePartition.EVALUATIONS], counts[EvaluatePartition.POINTS_ROWS], frontier.size(),
                status, evaluateSeconds, totalSeconds, frontier, partitions);
    }

    /** "max tokens_per_s,min cost_usd": how diff knows what "moved" means for this run. */
    static String objectives(SweepSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (SweepSpec.Objective o : spec.objectives()) {
            sb.append(sb.length() == 0 ? "" : ",").append(o.goal().id()).append(' ').append(o.metric().column());
        }
        return sb.toString();
    }

    static String groupBy(SweepSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (GroupColumn g : spec.groupBy()) {
            sb.append(sb.length() == 0 ? "" : ",").append(g.column());
        }
        return sb.toString();
    }

    /**
     * Every group's skyline in canonical order, groups ordered by their label, each row with its group label and its
     * robust flag ({@link FrontierFold#robust}).
     */
    static List<Row> frontierRows(SweepSpec spec, FrontierFold fold) {
        int[] at = new int[spec.groupBy().size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = ResultsSchema.POINTS.index(spec.groupBy().get(i).column());
        }
        IntervalEnds ends = new IntervalEnds(spec.objectives());
        TreeMap<String, List<Row>> byLabel = new TreeMap<>();
        for (Map.Entry<Long, Skyline<Row>> s : fold.frontiers().entrySet()) {
            List<Skyline.Entry<Row>> entries = s.getValue().entries();
            if (entries.isEmpty()) {
                continue;
            }
            Row first = entries.get(0).payload();
            StringBuilder label = new StringBuilder();
            for (int i = 0; i < at.length; i++) {
                if (i > 0) {
                    label.append(',');
                }
                GroupColumn g = spec.groupBy().get(i);
                label.append(g.column()).append('=').append(first.get(at[i]));
            }
            boolean[] robust = fold.robust(s.getKey(), entries, ends, spec.objectives().size());
            List<Row> rows = new ArrayList<>();
            for (int r = 0; r < entries.size(); r++) {
                rows.add(PointRows.withGroup(entries.get(r).payload(), label.toString(), robust[r]));
            }
            byLabel.put(label.toString(), rows);
        }
        List<Row> out = new ArrayList<>();
        byLabel.values().forEach(out::addAll);
        return out;
    }
}
