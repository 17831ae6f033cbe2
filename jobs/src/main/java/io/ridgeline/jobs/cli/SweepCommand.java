package io.ridgeline.jobs.cli;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sweep.RunCommitter;
import io.ridgeline.jobs.sweep.RunIds;
import io.ridgeline.jobs.sweep.SweepEstimate;
import io.ridgeline.jobs.sweep.SweepJob;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import io.ridgeline.jobs.sql.SparkSessions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import scala.Tuple2;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ridgeline sweep FILE}: validate, estimate, run on Spark, commit, summarise. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a sweep file on Spark and write points, frontier and runs as Parquet.")
public final class SweepCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The sweep file (YAML or JSON).")
    Path file;

    @Mixin
    OutputDirectory out = new OutputDirectory();

    @Option(names = "--run-id", description = "Run id (default: NAME-yyyyMMddTHHmmssZ-xxxxxx, six random hex "
            + "digits). Reusing one replaces that run atomically; while a run holds an id, another fails at once.")
    String runId;

    @Mixin
    SweepLimits limits = new SweepLimits();

    @Mixin
    SparkMaster cluster = new SparkMaster();

    @Option(names = "--partitions", defaultValue = "0", description = "Spark partitions (default: 4 per core).")
    int partitions;

    @Mixin
    SweepSummary summary = new SweepSummary();

    @Override
    public Integer call() {
        PrintStream console = System.out;
        long t0 = System.nanoTime();
        Instant startedAt = Instant.now();
        SweepSpec spec = SweepLoader.load(file);
        String id = runId != null ? runId : RunIds.generate(spec.name(), startedAt);
        if (!RunIds.VALID.matcher(id).matches()) {
            throw new InvalidInputException(InputError.of("--run-id", "run_id",
                    "letters, digits, '.', '_' or '-' (at most 128)", "'" + id + "'"));
        }
        SparkConf conf = new SparkConf();
        String sparkMaster = SparkSessions.master(cluster.master, conf);
        int cores = sparkMaster.startsWith("local") ? Runtime.getRuntime().availableProcessors()
                : conf.getInt("spark.cores.max", Runtime.getRuntime().availableProcessors());
        console.printf("sweep %s (%s)%n", spec.name(), file);
        console.printf(Locale.ROOT, "  grid: %,d points = %d models x %d phase settings x %d chips x %d scale-out x "
                        + "%d rates x %d domains x %d topologies x %d cluster sizes x %d plans%n", spec.grid().size(),
                spec.models().size(), spec.workloads().size(), spec.chips().size(), spec.scaleOuts().size(),
                spec.scaleOutGbitPerSecond().size(), spec.scaleUpDomains().size(), spec.topologies().size(),
                spec.gpuCounts().size(), spec.grid().radix(io.ridgeline.engine.sweep.Grid.PLAN));
        console.println("  software: " + spec.describeSoftware());
        if (SweepCalibration.profile(spec) != null) { // a bad profile fails here, before Spark
            console.println("  calibration: " + spec.calibration().describe());
        }
        if (!spec.derived().isEmpty() || !spec.unbuildable().isEmpty()) {
            console.printf("  derived chips: %d buildable, %d cannot exist%n", spec.derived().size(),
                    spec.unbuildable().size());
            for (String u : spec.unbuildable()) {
                console.println("    skipped " + u);
            }
        }
        SweepEstimate est = SweepEstimate.of(spec, cores, 2.0);
        console.printf(Locale.ROOT, "  plans: %,d engine evaluations (%s, keep %s); objectives %s; points: %s%n",
                est.evaluations(), spec.parallelism().mode().name().toLowerCase(Locale.ROOT),
                spec.parallelism().keep().name().toLowerCase(Locale.ROOT), SweepSummary.objectives(spec),
                spec.points().id());
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        int machineCores = Runtime.getRuntime().availableProcessors();
        console.printf(Locale.ROOT, "  estimate: %s of CPU per point warm (%,d timed on the driver) -> about %s of "
                        + "evaluating%s on %d cores, plus Spark start and commit (~15 s on a quiet 2-core machine)%s%n",
                est.secondsPerPoint() < 1e-4 ? String.format(Locale.ROOT, "%.1f us", est.secondsPerPoint() * 1e6)
                        : String.format(Locale.ROOT, "%.2f ms", est.secondsPerPoint() * 1e3), est.sampledPoints(),
                duration(est.seconds()), est.writeSeconds() > 0 ? " and writing" : "", cores,
                load > machineCores ? String.format(Locale.ROOT, "; load average %.1f on %d cores: other processes "
                        + "share them, expect longer", load, machineCores) : "");
        limits.check(file, est);
        if (limits.dryRun) {
            console.println("  dry run: the sweep is valid; nothing was run.");
            return 0;
        }
        // The run id's lock before Spark: a second run of a held id fails here, in one line.
        RunCommitter committer = RunCommitter.begin(hadoopConfiguration(conf), out.out, id);
        double validateSeconds = (System.nanoTime() - t0) / 1e9;
        SparkSession spark;
        try {
            // maxToStringFields: the points schema is wide; Spark would warn about truncating plan strings.
            SparkSession.Builder b = SparkSessions.builder("ridgeline sweep " + spec.name(), cluster.master, conf)
                    .config("spark.sql.debug.maxToStringFields", "200");
            spark = b.getOrCreate();
        } catch (RuntimeException e) {
            committer.abort();
            throw e;
        }
        try {
            SweepJob.RunResult r = SweepJob.run(spark, spec, new SweepJob.Options(out.out, id, partitions, 3000,
                    validateSeconds, t0, startedAt), console, committer);
            summary.print(console, spec, r, out.out);
        } finally {
            spark.stop();
        }
        return 0;
    }

    /** The Hadoop configuration Spark will use for the output: defaults plus every spark.hadoop.* setting. */
    static Configuration hadoopConfiguration(SparkConf conf) {
        Configuration c = new Configuration();
        for (Tuple2<String, String> e : conf.getAll()) {
            if (e._1().startsWith("spark.hadoop.")) {
                c.set(e._1().substring("spark.hadoop.".length()), e._2());
            }
        }
        return c;
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
}
