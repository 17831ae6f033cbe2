package io.ridgeline.jobs.sweep;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The lock of one run id: the file {@code <out>/_staging/run_id=<id>.lock} holding its {@link RunOwner}. Created
 * atomically with the owner record already inside (a hard link of a finished temp file on local disks; a rename,
 * which fails when the target exists, on HDFS), refreshed by a heartbeat, deleted at commit or abort.
 *
 * <p>When a holder counts as gone ({@link #gone}): it is on this host and provably dead (pid gone or reused), or it is
 * not known to be alive on this host and its last sign of life (the lock's or staging directory's modification time,
 * refreshed every {@link #HEARTBEAT}) is older than {@link #STALE}. A live holder on this host is never taken over.
 */
final class RunLock implements AutoCloseable {
    static final String SUFFIX = ".lock";
    /** How often a live run touches its lock. */
    static final Duration HEARTBEAT = Duration.ofSeconds(30);
    /** Silence after which a holder on another host (or of unknown identity) is presumed dead: 20 missed beats. */
    static final Duration STALE = Duration.ofMinutes(10);

    private final FileSystem fs;
    private final Path path;
    private final RunOwner owner;
    private final ScheduledExecutorService heartbeat;

    private RunLock(FileSystem fs, Path path, RunOwner owner) {
        this.fs = fs;
        this.path = path;
        this.owner = owner;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ridgeline-lock-heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeat.scheduleAtFixedRate(this::touch, HEARTBEAT.toSeconds(), HEARTBEAT.toSeconds(), TimeUnit.SECONDS);
    }

    static Path path(Path stagingRoot, String runId) {
        return new Path(stagingRoot, "run_id=" + runId + SUFFIX);
    }

    /** The run id of a lock file name, or null when the name is not a lock's. */
    static String runIdOf(String name) {
        return name.startsWith("run_id=") && name.endsWith(SUFFIX)
                ? name.substring("run_id=".length(), name.length() - SUFFIX.length()) : null;
    }

    /**
     * Takes the lock of {@code runId}, first clearing a lock whose holder is {@link #gone}.
     *
     * @throws RunLockedException when a holder that may be alive has it
     */
    static RunLock acquire(FileSystem fs, Path stagingRoot, String runId, RunOwner owner) throws IOException {
        Path p = path(stagingRoot, runId);
        fs.mkdirs(stagingRoot);
        for (int attempt = 0; ; attempt++) {
            if (createExclusive(fs, p, owner.toText())) {
                return new RunLock(fs, p, owner);
            }
            Holder h = read(fs, p);
            if (h == null && attempt < 5) {
                continue; // released between our attempt and the read
            }
            if (h == null) {
                throw new IOException("cannot create the lock " + local(p));
            }
            if (attempt == 0 && gone(h.owner(), h.modifiedMillis()) && remove(fs, p, h)) {
                continue;
            }
            throw new RunLockedException("run id '" + runId + "' is in use by " + h.owner().map(RunOwner::describe)
                    .orElse("a run whose lock cannot be read") + " (lock " + local(p) + "); wait for it to finish or "
                    + "choose another --run-id");
        }
    }

    /** The holder of a lock file and when it last showed a sign of life; null when there is no such file. */
    record Holder(Optional<RunOwner> owner, long modifiedMillis, String text) {
    }

    static Holder read(FileSystem fs, Path p) throws IOException {
        try {
            FileStatus st = fs.getFileStatus(p);
            String text;
            try (FSDataInputStream in = fs.open(p)) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return new Holder(RunOwner.parse(text), st.getModificationTime(), text);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /** The documented rule (class comment): may the holder's lock and staging be cleared? */
    static boolean gone(Optional<RunOwner> owner, long lastSignMillis) {
        if (owner.isPresent()) {
            if (owner.get().provablyDeadOnThisHost()) {
                return true;
            }
            if (owner.get().host().equals(RunOwner.localHost())) {
                return false; // alive here: never taken over, however quiet
            }
        }
        return System.currentTimeMillis() - lastSignMillis > STALE.toMillis();
    }

    /** Deletes a gone holder's lock unless it changed since it was judged (another run took it meanwhile). */
    static boolean remove(FileSystem fs, Path p, Holder judged) throws IOException {
        Path claimed = new Path(p.getParent(), p.getName() + "." + UUID.randomUUID() + ".gone");
        if (!fs.rename(p, claimed)) {
            return false;
        }
        Holder now = read(fs, claimed);
        if (now != null && !now.text().equals(judged.text())) {
            createExclusive(fs, p, now.text()); // not the one we judged: put it back
            fs.delete(claimed, false);
            return false;
        }
        fs.delete(claimed, false);
        return true;
    }

    /** Throws unless this run still holds its lock (a stale-lock takeover by another run would have replaced it). */
    void verifyHeld(String runId) throws IOException {
        Holder h = read(fs, path);
        if (h == null || !h.text().equals(owner.toText())) {
            throw new IOException("run " + runId + " lost its lock " + local(path) + " to " + (h == null ? "nobody"
                    : h.owner().map(RunOwner::describe).orElse("an unreadable lock")) + "; not committing");
        }
    }

    private void touch() {
        try {
            fs.setTimes(path, System.currentTimeMillis(), -1);
        } catch (IOException | RuntimeException ignored) {
            // a missed beat; STALE allows 20 of them
        }
    }

    /** Stops touching the lock (it then goes stale like a dead owner's) without deleting it. */
    void stopHeartbeat() {
        heartbeat.shutdownNow();
    }

    /** Stops the heartbeat and deletes the lock if it is still this run's. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
        try {
            Holder h = read(fs, path);
            if (h != null && h.text().equals(owner.toText())) {
                fs.delete(path, false);
            }
        } catch (IOException ignored) {
            // the next run judges the lock by its owner
        }
    }

    /**
     * Creates {@code p} with {@code text} unless it exists, atomically: readers never see a half-written lock and
     * two writers never both succeed.
     */
    static boolean createExclusive(FileSystem fs, Path p, String text) throws IOException {
        Path tmp = new Path(p.getParent(), "." + p.getName() + "." + UUID.randomUUID() + ".tmp");
        try (FSDataOutputStream o = fs.create(tmp, false)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
            o.hsync();
        }
        try {
            if ("file".equals(fs.getUri().getScheme())) {
                // Hadoop's local rename replaces an existing target; a hard link does not.
                java.nio.file.Path target = Paths.get(fs.makeQualified(p).toUri());
                try {
                    Files.createLink(target, Paths.get(fs.makeQualified(tmp).toUri()));
                    return true;
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    return false;
                }
            }
            try {
                return fs.rename(tmp, p); // HDFS: false when p exists
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        } finally {
            fs.delete(tmp, false);
        }
    }

    static String local(Path p) {
        String s = p.toString();
        return s.startsWith("file:") ? s.substring("file:".length()) : s;
    }
}
