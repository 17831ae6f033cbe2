package io.ridgeline.jobs.sweep;

import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Console progress of the evaluation job: points done, points/s and ETA, from Spark's status tracker (completed
 * tasks x points per task), printed every few seconds on a daemon thread. Points are counted per finished partition,
 * so the count moves in steps of one partition's points.
 */
final class Progress implements AutoCloseable {
    private final Thread thread;
    private volatile boolean done;

    Progress(JavaSparkContext jsc, String jobGroup, long points, PrintStream out, long intervalMillis) {
        long start = System.nanoTime();
        thread = new Thread(() -> {
            while (!done) {
                try {
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    return;
                }
                int total = 0;
                int completed = 0;
                for (int jobId : jsc.statusTracker().getJobIdsForGroup(jobGroup)) {
                    SparkJobInfo job = jsc.statusTracker().getJobInfo(jobId);
                    if (job == null) {
                        continue;
                    }
                    for (int stageId : job.stageIds()) {
                        SparkStageInfo stage = jsc.statusTracker().getStageInfo(stageId);
                        if (stage != null) {
                            total += stage.numTasks();
                            completed += stage.numCompletedTasks();
                        }
                    }
                }
                if (total == 0 || done) {
                    continue;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long pointsDone = Math.round(points * (double) completed / total);
                double rate = pointsDone / seconds;
                String eta = rate > 0 ? String.format(Locale.ROOT, "%.0f s", (points - pointsDone) / rate) : "?";
                out.printf(Locale.ROOT, "  progress: %,d / %,d points (%.0f%%), %,.0f points/s, ETA %s%n",
                        pointsDone, points, 100.0 * pointsDone / points, rate, eta);
            }
        }, "ridgeline-progress");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        done = true;
        thread.interrupt();
    }
}
