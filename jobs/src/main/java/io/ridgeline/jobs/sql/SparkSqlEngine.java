package io.ridgeline.jobs.sql;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.schema.ResultsSchema;
import io.ridgeline.schema.Table;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoDir;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import scala.collection.Iterator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Spark SQL over a results directory on any file system Spark reads (local, HDFS, S3): one temporary view per table
 * over its committed Hive partitions (run_id kept as text, schemas of older runs merged by name), as the DuckDB path
 * of {@code ridgeline sql} builds them. Read-only: the statement is parsed first and refused when any part of it is a
 * command (CREATE, INSERT, CACHE, SET, ADD JAR, ...) or calls Java methods by reflection; only then does Spark run it.
 */
public final class SparkSqlEngine implements SqlEngine {
    /** Functions that call arbitrary static Java methods: not a query's business. */
    static final Set<String> REFLECTION = Set.of("reflect", "java_method", "try_reflect");

    private final SparkSession spark;
    private final boolean ownSession;
    private final List<String> views = new ArrayList<>();

    /**
     * @param out    the results directory as Spark addresses it (a local path, hdfs://..., s3a://...)
     * @param master the Spark master, or null for spark-submit's (else local[*])
     */
    public static SparkSqlEngine open(String out, String master) {
        SparkSession spark = SparkSessions.builder("ridgeline sql", master, new org.apache.spark.SparkConf())
                .getOrCreate();
        return new SparkSqlEngine(spark, true, out);
    }

    /** Over an existing session (tests, or a caller that already runs Spark); {@link #close} leaves it running. */
    public static SparkSqlEngine over(SparkSession spark, String out) {
        return new SparkSqlEngine(spark, false, out);
    }

    private SparkSqlEngine(SparkSession spark, boolean ownSession, String out) {
        this.spark = spark;
        this.ownSession = ownSession;
        // Timestamps print in UTC like DuckDB's; run ids such as 20260101 stay text, as DuckDB's hive_types say.
        spark.conf().set("spark.sql.session.timeZone", "UTC");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
        String base = out.endsWith("/") ? out.substring(0, out.length() - 1) : out;
        for (Table t : ResultsSchema.TABLES) {
            String dir = base + "/" + t.name();
            if (!hasParquet(dir)) {
                continue;
            }
            spark.read().option("mergeSchema", "true").parquet(dir).createOrReplaceTempView(t.name());
            views.add(t.name());
        }
    }

    private boolean hasParquet(String dir) {
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir);
            FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
            if (!fs.exists(p)) {
                return false;
            }
            var files = fs.listFiles(p, true);
            while (files.hasNext()) {
                if (files.next().getPath().getName().endsWith(".parquet")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    @Override
    public List<String> views() {
        return List.copyOf(views);
    }

    /**
     * Parses the statement with Spark's SQL parser, without a session (nothing starts, nothing runs), and refuses it
     * when it is not a read-only query or does not parse.
     */
    public static void checkReadOnly(String sql) {
        check(sql, new SparkSqlParser(), "[points, frontier, runs]");
    }

    private static void check(String sql, ParserInterface parser, String views) {
        LogicalPlan plan;
        try {
            plan = parser.parsePlan(sql);
        } catch (ParseException e) {
            throw invalid(e, views);
        }
        String refused = refused(plan);
        if (refused != null) {
            throw new InvalidInputException(InputError.of("sql", "QUERY", "a read-only query (SELECT, WITH ... "
                    + "SELECT, VALUES, TABLE) for --engine spark", refused));
        }
    }

    @Override
    public void query(String sql, RowSink sink) {
        // Again with the session's own parser (extensions could parse differently), before anything runs.
        check(sql, spark.sessionState().sqlParser(), views.toString());
        Dataset<Row> df;
        try {
            df = spark.sql(sql);
            sink.columns(Arrays.asList(df.columns()));
            java.util.Iterator<Row> it = df.toLocalIterator();
            while (it.hasNext()) {
                Row r = it.next();
                Object[] v = new Object[r.length()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = r.get(i);
                }
                sink.row(v);
            }
        } catch (Exception e) {
            // Spark's analysis and execution errors (unknown column, bad cast...) are the query's fault; others are
            // bugs or the environment and keep their stack trace.
            if (e instanceof org.apache.spark.sql.AnalysisException || e instanceof org.apache.spark.SparkThrowable) {
                throw invalid(e, views.toString());
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e);
        }
    }

    private static InvalidInputException invalid(Exception e, String views) {
        String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
        return new InvalidInputException(InputError.of("sql", "QUERY", "a valid Spark SQL query over " + views, msg));
    }

    /** What makes the statement more than a query, or null: the first command or reflective call in its tree. */
    static String refused(LogicalPlan plan) {
        if (plan instanceof Command || plan instanceof InsertIntoStatement || plan instanceof InsertIntoDir) {
            return "a statement that writes or changes state (" + plan.nodeName() + ")";
        }
        String r = firstRefused(plan.expressions().iterator(), (Expression x) -> refused(x));
        if (r == null) {
            r = firstRefused(plan.children().iterator(), (LogicalPlan p) -> refused(p));
        }
        if (r == null) {
            // CTE definitions (WITH x AS (...)) hang off the plan as inner children.
            r = firstRefused(plan.innerChildren().iterator(), n -> n instanceof LogicalPlan p ? refused(p) : null);
        }
        return r;
    }

    private static String refused(Expression e) {
        if (e instanceof UnresolvedFunction f) {
            String name = f.nameParts().last().toLowerCase(Locale.ROOT);
            if (REFLECTION.contains(name)) {
                return "a call of " + name + "(), which runs Java methods";
            }
        }
        String r = e instanceof SubqueryExpression s ? refused(s.plan()) : null;
        return r != null ? r : firstRefused(e.children().iterator(), (Expression x) -> refused(x));
    }

    /** The first refusal among {@code nodes} (depth first, in order), or null: the one walk both node kinds share. */
    private static <T> String firstRefused(Iterator<? extends T> nodes, Function<? super T, String> check) {
        while (nodes.hasNext()) {
            String r = check.apply(nodes.next());
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    @Override
    public void close() {
        for (String v : views) {
            spark.catalog().dropTempView(v);
        }
        if (ownSession) {
            spark.stop();
        }
    }
}
