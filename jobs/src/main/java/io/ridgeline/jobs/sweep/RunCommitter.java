package io.ridgeline.jobs.sweep;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Atomic commit of one run's tables. Tables are written under {@code <out>/_staging/run_id=<id>.<nonce>/<table>/}
 * and become visible as {@code <out>/<table>/run_id=<id>/} only at commit. A run is complete exactly when its row is in
 * the {@code runs} table, which is moved last.
 *
 * <p>Lifecycle, and what a crash at each step leaves:
 * <ol>
 *   <li>{@link #begin}: create the staging directory. Crash: an orphan staging directory, invisible to readers of
 *       {@code <out>/<table>/}; the next run with this id deletes it.</li>
 *   <li>The job writes every table into staging. Crash: as in 1.</li>
 *   <li>{@link #commit}: write {@code _COMMIT} (the intent: the tables to move) into staging. From here on the run
 *       will complete: a crash is rolled forward by {@link #recover} at the start of the next run on the same output.
 *   </li>
 *   <li>For each table, runs last: move any previous partition of this run id to {@code _trash}, then rename the
 *       staged table into place (one rename per table: atomic on local file systems and HDFS).</li>
 *   <li>Delete the staging directory (with its intent) and the trash.</li>
 * </ol>
 */
public final class RunCommitter {
    static final String STAGING = "_staging";
    static final String TRASH = "_trash";
    static final String INTENT = "_COMMIT";

    private final FileSystem fs;
    private final Path out;
    private final String runId;
    private final Path staging;

    private RunCommitter(FileSystem fs, Path out, String runId, Path staging) {
        this.fs = fs;
        this.out = out;
        this.runId = runId;
        this.staging = staging;
    }

    /** Step 1: recovers earlier interrupted commits on {@code out}, then creates this run's staging directory. */
    public static RunCommitter begin(Configuration conf, String outDir, String runId) {
        try {
            Path out = new Path(outDir);
            FileSystem fs = out.getFileSystem(conf);
            out = fs.makeQualified(out);
            recover(fs, out);
            deleteIncomplete(fs, out, runId);
            Path staging = new Path(new Path(out, STAGING), "run_id=" + runId + "." + UUID.randomUUID());
            if (!fs.mkdirs(staging)) {
                throw new IOException("cannot create " + staging);
            }
            return new RunCommitter(fs, out, runId, staging);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare output directory " + outDir, e);
        }
    }

    /** Where the job writes {@code table} before commit. */
    public String stagingPath(String table) {
        return new Path(staging, table).toString();
    }

    /** The committed location of {@code table} for this run. */
    public String committedPath(String table) {
        return committed(out, table, runId).toString();
    }

    /** Steps 3-5. {@code tables} must end with the manifest table. */
    public void commit(List<String> tables) {
        try {
            try (FSDataOutputStream o = fs.create(new Path(staging, INTENT), false)) {
                o.write(String.join("\n", tables).getBytes(StandardCharsets.UTF_8));
                o.hsync();
            }
            rollForward(fs, out, staging);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot commit run " + runId + " (rerun to complete it)", e);
        }
    }

    /** Completes every staged run that reached step 3; idempotent. */
    static void recover(FileSystem fs, Path out) throws IOException {
        Path stagingRoot = new Path(out, STAGING);
        if (!fs.exists(stagingRoot)) {
            return;
        }
        for (FileStatus s : fs.listStatus(stagingRoot)) {
            if (s.isDirectory() && fs.exists(new Path(s.getPath(), INTENT))) {
                rollForward(fs, out, s.getPath());
            }
        }
    }

    /** Deletes staged attempts of {@code runId} that never reached step 3: they can never complete. */
    private static void deleteIncomplete(FileSystem fs, Path out, String runId) throws IOException {
        Path stagingRoot = new Path(out, STAGING);
        if (!fs.exists(stagingRoot)) {
            return;
        }
        String prefix = "run_id=" + runId + ".";
        for (FileStatus s : fs.listStatus(stagingRoot)) {
            if (s.getPath().getName().startsWith(prefix) && !fs.exists(new Path(s.getPath(), INTENT))) {
                fs.delete(s.getPath(), true);
            }
        }
    }

    private static void rollForward(FileSystem fs, Path out, Path staged) throws IOException {
        String name = staged.getName();
        String runId = name.substring("run_id=".length(), name.lastIndexOf('.'));
        List<String> tables = new ArrayList<>();
        try (FSDataInputStream in = fs.open(new Path(staged, INTENT))) {
            for (String t : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!t.isBlank()) {
                    tables.add(t.trim());
                }
            }
        }
        Path trash = new Path(new Path(out, TRASH), name);
        for (String table : tables) {
            Path src = new Path(staged, table);
            if (!fs.exists(src)) {
                continue; // moved before a crash
            }
            Path dst = committed(out, table, runId);
            fs.mkdirs(dst.getParent());
            if (fs.exists(dst)) {
                fs.mkdirs(trash);
                if (!fs.rename(dst, new Path(trash, table))) {
                    throw new IOException("cannot move the previous " + dst + " aside");
                }
            }
            if (!fs.rename(src, dst)) {
                throw new IOException("cannot rename " + src + " to " + dst);
            }
        }
        fs.delete(trash, true);
        fs.delete(staged, true);
    }

    static Path committed(Path out, String table, String runId) {
        return new Path(new Path(out, table), "run_id=" + runId);
    }

    /** Leaves nothing behind for a run that failed before commit. */
    public void abort() {
        try {
            fs.delete(staging, true);
        } catch (IOException ignored) {
            // the next run with this id deletes it
        }
    }
}
