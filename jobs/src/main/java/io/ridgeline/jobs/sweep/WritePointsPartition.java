package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.schema.ResultsSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Executor side of a sweep that writes points: evaluates the partition's chunks ({@link PartitionEvaluator}) and
 * writes each kept point straight into one Parquet file per partition with {@link ParquetPointWriter} (no Spark SQL
 * row conversion, no {@code Row} per point). Task attempts are isolated like Spark's own commit protocol does it:
 * <ol>
 *   <li>write {@code .part-NNNNN.attempt-A.inprogress} (a hidden name no reader lists);</li>
 *   <li>on success rename it to {@code part-NNNNN.snappy.parquet}, replacing the file of an earlier attempt of the
 *       same partition (rows are deterministic, so either attempt's file is the same);</li>
 *   <li>a failed attempt leaves only a hidden file, which the run's commit deletes; the whole table still lives in the
 *       run's staging directory until the run commits, so a failed run shows nothing.</li>
 * </ol>
 */
final class WritePointsPartition implements VoidFunction<Iterator<Long>> {
    private static final long serialVersionUID = 1L;
    static final String IN_PROGRESS_SUFFIX = ".inprogress";

    private final SweepSpec spec;
    private final long pointsPerChunk;
    private final FrontierAccumulator frontier;
    private final CountsAccumulator counts;
    private final String directory;
    private final SerializableConfiguration conf;

    WritePointsPartition(SweepSpec spec, long pointsPerChunk, FrontierAccumulator frontier, CountsAccumulator counts,
                         String directory, SerializableConfiguration conf) {
        this.spec = spec;
        this.pointsPerChunk = pointsPerChunk;
        this.frontier = frontier;
        this.counts = counts;
        this.directory = directory;
        this.conf = conf;
    }

    /** The committed file name of a partition. */
    static String fileName(int partition) {
        return String.format("part-%05d.snappy.parquet", partition);
    }

    /**
     * Driver side, after the write job: drops what failed attempts left behind, and writes one schema-only file when
     * no partition produced a row, so readers still see the table's columns.
     */
    static void finish(Configuration conf, String directory) throws IOException {
        Path dir = new Path(directory);
        FileSystem fs = dir.getFileSystem(conf);
        boolean anyFile = false;
        if (fs.exists(dir)) {
            for (FileStatus s : fs.listStatus(dir)) {
                String name = s.getPath().getName();
                if (name.endsWith(IN_PROGRESS_SUFFIX)) {
                    fs.delete(s.getPath(), false);
                } else if (name.endsWith(".parquet")) {
                    anyFile = true;
                }
            }
        }
        if (!anyFile) {
            new ParquetRowWriter(conf, new Path(dir, fileName(0)), ResultsSchema.POINTS).close();
        }
    }

    @Override
    public void call(Iterator<Long> chunks) throws IOException {
        TaskContext task = TaskContext.get();
        int partition = task == null ? 0 : task.partitionId();
        int attempt = task == null ? 0 : task.attemptNumber();
        Path dir = new Path(directory);
        Path temp = new Path(dir, String.format(".part-%05d.attempt-%d%s", partition, attempt, IN_PROGRESS_SUFFIX));
        Path target = new Path(dir, fileName(partition));
        FileSystem fs = dir.getFileSystem(conf.value());
        PartitionEvaluator evaluator = new PartitionEvaluator(spec, pointsPerChunk, frontier, counts);
        boolean[] wrote = {false};
        try (ParquetPointWriter writer = new ParquetPointWriter(conf.value(), temp)) {
            PartitionEvaluator.PointSink sink = p -> {
                writer.write(p);
                wrote[0] = true;
            };
            while (chunks.hasNext()) {
                evaluator.evaluateChunk(chunks.next(), sink);
            }
        }
        evaluator.report();
        if (!wrote[0]) {
            // An empty partition leaves no file; the driver writes one schema-only file if the table is empty.
            fs.delete(temp, false);
            return;
        }
        if (fs.exists(target)) {
            fs.delete(target, false);
        }
        if (!fs.rename(temp, target)) {
            throw new UncheckedIOException(new IOException("cannot rename " + temp + " to " + target));
        }
    }
}
