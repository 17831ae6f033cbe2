package io.ridgeline.jobs.sweep;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Atomic, exclusive commit of one run's tables. Tables are written under {@code <out>/_staging/run_id=<id>.<nonce>/
 * <table>/} and become visible as {@code <out>/<table>/run_id=<id>/} only at commit. A run is complete exactly when
 * its row is in the {@code runs} table, which is moved last.
 *
 * <p>Lifecycle, and what a crash at each step leaves:
 * <ol>
 *   <li>{@link #begin}: clear what dead runs left (below), take the run id's {@link RunLock} (a live holder: {@link
 *       RunLockedException}, nothing touched), create the staging directory with an {@code _OWNER} record. Crash: a
 *       lock and an orphan staging directory, invisible to readers of {@code <out>/<table>/}.</li>
 *   <li>The job writes every table into staging. Crash: as in 1.</li>
 *   <li>{@link #commit}: check the lock is still ours, write {@code _COMMIT} (the intent: the tables to move). From
 *       here on the run will complete: a crash is rolled forward by the next run on the same output.</li>
 *   <li>For each table, runs last: move any previous partition of this run id to {@code _trash}, then rename the
 *       staged table into place (one rename per table: atomic on local file systems and HDFS).</li>
 *   <li>Delete the staging directory (with its intent), the trash, then the lock.</li>
 * </ol>
 *
 * <p>Clean-up of dead runs (any run id) at step 1: a staging directory whose owner is gone by {@link RunLock}'s rule
 * (same host and pid gone or reused; otherwise no heartbeat for {@link RunLock#STALE}) is rolled forward when it has
 * an intent, else deleted, and its lock removed. A live owner's staging, or another host's within the stale window,
 * is never touched.
 */
public final class RunCommitter {
    static final String STAGING = "_staging";
    static final String TRASH = "_trash";
    static final String INTENT = "_COMMIT";
    static final String OWNER = "_OWNER";

    private final FileSystem fs;
    private final Path out;
    private final String runId;
    private final Path staging;
    private final RunLock lock;

    private RunCommitter(FileSystem fs, Path out, String runId, Path staging, RunLock lock) {
        this.fs = fs;
        this.out = out;
        this.runId = runId;
        this.staging = staging;
        this.lock = lock;
    }

    /** Step 1. */
    public static RunCommitter begin(Configuration conf, String outDir, String runId) {
        try {
            Path out = new Path(outDir);
            FileSystem fs = out.getFileSystem(conf);
            out = fs.makeQualified(out);
            Path stagingRoot = new Path(out, STAGING);
            clearDeadRuns(fs, out);
            String name = "run_id=" + runId + "." + UUID.randomUUID();
            RunOwner owner = RunOwner.current(name);
            RunLock lock = RunLock.acquire(fs, stagingRoot, runId, owner);
            try {
                deleteOwnerless(fs, stagingRoot, runId);
                Path staging = new Path(stagingRoot, name);
                if (!fs.mkdirs(staging)) {
                    throw new IOException("cannot create " + staging);
                }
                try (FSDataOutputStream o = fs.create(new Path(staging, OWNER), false)) {
                    o.write(owner.toText().getBytes(StandardCharsets.UTF_8));
                }
                return new RunCommitter(fs, out, runId, staging, lock);
            } catch (IOException | RuntimeException e) {
                lock.close();
                throw e;
            }
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
            lock.verifyHeld(runId);
            try (FSDataOutputStream o = fs.create(new Path(staging, INTENT), false)) {
                o.write(String.join("\n", tables).getBytes(StandardCharsets.UTF_8));
                o.hsync();
            }
            rollForward(fs, out, staging);
            lock.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot commit run " + runId + " (rerun to complete it)", e);
        }
    }

    /**
     * Leaves nothing behind for a run that failed before its intent. A run that failed after it (step 4) keeps its
     * staging and its lock: once this process has ended, the next run rolls it forward, and no other run of this id
     * can commit in between and then be overwritten by that roll-forward.
     */
    public void abort() {
        try {
            if (fs.exists(new Path(staging, INTENT))) {
                lock.stopHeartbeat();
                return;
            }
            fs.delete(staging, true);
        } catch (IOException ignored) {
            // its owner is dead once this process ends: the next run clears it
        }
        lock.close();
    }

    /**
     * Rolls forward (intent written) or deletes (no intent) every staging directory whose owner is gone, and removes
     * locks of gone holders that never created staging; idempotent.
     */
    static void clearDeadRuns(FileSystem fs, Path out) throws IOException {
        Path stagingRoot = new Path(out, STAGING);
        FileStatus[] entries;
        try {
            entries = fs.listStatus(stagingRoot);
        } catch (FileNotFoundException e) {
            return;
        }
        for (FileStatus s : entries) {
            String name = s.getPath().getName();
            if (s.isDirectory() && name.startsWith("run_id=") && name.lastIndexOf('.') > "run_id=".length()) {
                clearIfDead(fs, out, s);
            }
        }
        for (FileStatus s : entries) {
            String name = s.getPath().getName();
            String runId = RunLock.runIdOf(name);
            if (s.isFile() && (name.endsWith(".tmp") || name.endsWith(".gone"))
                    && RunLock.gone(Optional.empty(), s.getModificationTime())) {
                fs.delete(s.getPath(), false); // a lock's temp or claimed copy left by a crash
            } else if (s.isFile() && runId != null) {
                RunLock.Holder h = RunLock.read(fs, s.getPath());
                if (h != null && RunLock.gone(h.owner(), h.modifiedMillis())
                        && (h.owner().isEmpty() || !fs.exists(new Path(stagingRoot, h.owner().get().staging())))) {
                    RunLock.remove(fs, s.getPath(), h);
                }
            }
        }
    }

    private static void clearIfDead(FileSystem fs, Path out, FileStatus dir) throws IOException {
        Path staged = dir.getPath();
        Path lockPath = RunLock.path(staged.getParent(), runIdOf(staged));
        RunLock.Holder lock = RunLock.read(fs, lockPath);
        boolean lockIsThisAttempts = lock != null && lock.owner().isPresent()
                && lock.owner().get().staging().equals(staged.getName());
        Optional<RunOwner> owner = readOwner(fs, staged);
        if (owner.isEmpty() && lockIsThisAttempts) {
            owner = lock.owner(); // cut short between mkdir and the owner record
        }
        boolean intent = fs.exists(new Path(staged, INTENT));
        long lastSign = Math.max(dir.getModificationTime(), lockIsThisAttempts ? lock.modifiedMillis() : 0);
        // Without any owner and with an intent: written by a version that recorded no owners, which recovered every
        // intent at the next run; current runs record the owner before the intent.
        boolean legacyIntent = owner.isEmpty() && intent;
        if (!legacyIntent && !RunLock.gone(owner, lastSign)) {
            return;
        }
        if (intent) {
            rollForward(fs, out, staged);
        } else {
            fs.delete(staged, true);
        }
        if (lockIsThisAttempts) {
            RunLock.remove(fs, lockPath, lock);
        }
    }

    /**
     * Deletes staging directories of {@code runId} without an owner record (written before owners were recorded, or
     * cut short between mkdir and the record): only this id's lock holder can create them, and that is now us.
     */
    private static void deleteOwnerless(FileSystem fs, Path stagingRoot, String runId) throws IOException {
        String prefix = "run_id=" + runId + ".";
        for (FileStatus s : fs.listStatus(stagingRoot)) {
            Path p = s.getPath();
            if (s.isDirectory() && p.getName().startsWith(prefix) && readOwner(fs, p).isEmpty()
                    && !fs.exists(new Path(p, INTENT))) {
                fs.delete(p, true);
            }
        }
    }

    private static Optional<RunOwner> readOwner(FileSystem fs, Path staged) throws IOException {
        try (FSDataInputStream in = fs.open(new Path(staged, OWNER))) {
            return RunOwner.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    private static String runIdOf(Path staged) {
        String name = staged.getName();
        return name.substring("run_id=".length(), name.lastIndexOf('.'));
    }

    private static void rollForward(FileSystem fs, Path out, Path staged) throws IOException {
        String name = staged.getName();
        String runId = runIdOf(staged);
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
}
