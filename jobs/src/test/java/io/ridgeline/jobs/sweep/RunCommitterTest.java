package io.ridgeline.jobs.sweep;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit lifecycle without Spark: a crash after the intent is rolled forward, one before it never shows; a run id
 * is held by one live run at a time; what dead runs leave is cleared by the next run of any id, and only that.
 */
class RunCommitterTest {
    @TempDir
    Path out;

    private static void stage(Path dir, String... tables) throws Exception {
        for (String t : tables) {
            Files.createDirectories(dir.resolve(t));
            Files.writeString(dir.resolve(t).resolve("part-0.parquet"), "staged " + t);
        }
    }

    @Test
    void aCrashAfterTheIntentIsCompletedByTheNextRun() throws Exception {
        Path staged = out.resolve("_staging/run_id=r1.abc");
        stage(staged, "points", "frontier", "runs");
        Files.writeString(staged.resolve("_COMMIT"), "points\nfrontier\nruns");
        // Simulate a crash half-way through step 4: points already moved.
        Files.createDirectories(out.resolve("points"));
        Files.move(staged.resolve("points"), out.resolve("points/run_id=r1"));

        RunCommitter.begin(new Configuration(), out.toString(), "r2").abort();

        for (String t : List.of("points", "frontier", "runs")) {
            assertEquals("staged " + t, Files.readString(out.resolve(t).resolve("run_id=r1/part-0.parquet")));
        }
        assertFalse(Files.exists(staged));
    }

    @Test
    void aCrashBeforeTheIntentNeverBecomesVisibleAndIsClearedByARerun() throws Exception {
        Path staged = out.resolve("_staging/run_id=r1.abc");
        stage(staged, "points");
        RunCommitter c = RunCommitter.begin(new Configuration(), out.toString(), "r1");
        assertFalse(Files.exists(staged), "the incomplete attempt of the same run id is deleted");
        assertFalse(Files.exists(out.resolve("points/run_id=r1")));
        stage(Path.of(java.net.URI.create(c.stagingPath("points")).getPath()).getParent(), "points", "frontier",
                "runs");
        c.commit(List.of("points", "frontier", "runs"));
        assertTrue(Files.exists(out.resolve("runs/run_id=r1/part-0.parquet")));
    }

    @Test
    void aRerunReplacesThePreviousPartition() throws Exception {
        Files.createDirectories(out.resolve("points/run_id=r1"));
        Files.writeString(out.resolve("points/run_id=r1/old.parquet"), "old");
        RunCommitter c = RunCommitter.begin(new Configuration(), out.toString(), "r1");
        stage(Path.of(java.net.URI.create(c.stagingPath("points")).getPath()).getParent(), "points");
        c.commit(List.of("points"));
        assertFalse(Files.exists(out.resolve("points/run_id=r1/old.parquet")));
        assertTrue(Files.exists(out.resolve("points/run_id=r1/part-0.parquet")));
        try (var s = Files.list(out.resolve("_trash"))) {
            assertEquals(0, s.count());
        }
    }

    /** A staged attempt of {@code runId} owned by {@code owner}, with its lock, as a run leaves it when killed. */
    private static Path staged(Path out, String runId, RunOwner owner, boolean withLock) throws Exception {
        Path dir = out.resolve(RunCommitter.STAGING).resolve(owner.staging());
        stage(dir, "points");
        Files.writeString(dir.resolve(RunCommitter.OWNER), owner.toText());
        if (withLock) {
            Files.writeString(out.resolve(RunCommitter.STAGING).resolve("run_id=" + runId + RunLock.SUFFIX),
                    owner.toText());
        }
        return dir;
    }

    /** The pid of a process that has exited (and been reaped): provably dead on this host. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    private static RunOwner owner(long pid, String host, Instant processStart, String runId) {
        return new RunOwner(pid, host, processStart, Instant.parse("2026-01-01T00:00:00Z"),
                "run_id=" + runId + ".0f0f");
    }

    @Test
    void aSecondRunOfAHeldIdFailsWithOneLineNamingTheHolderAndTheFirstStillCommits() throws Exception {
        RunCommitter first = RunCommitter.begin(new Configuration(), out.toString(), "nightly-20260101");
        RunLockedException e = assertThrows(RunLockedException.class,
                () -> RunCommitter.begin(new Configuration(), out.toString(), "nightly-20260101"));
        String host = RunOwner.localHost();
        assertTrue(e.getMessage().matches("run id 'nightly-20260101' is in use by pid " + ProcessHandle.current().pid()
                + " on host \\Q" + host + "\\E since \\S+Z \\(lock \\Q" + out.resolve("_staging/run_id=nightly-20260101.lock")
                + "\\E\\); wait for it to finish or choose another --run-id"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        stage(Path.of(java.net.URI.create(first.stagingPath("points")).getPath()).getParent(), "points", "runs");
        first.commit(List.of("points", "runs"));
        assertTrue(Files.exists(out.resolve("runs/run_id=nightly-20260101/part-0.parquet")));
        RunCommitter.begin(new Configuration(), out.toString(), "nightly-20260101").abort(); // released at commit
        try (var s = Files.list(out.resolve(RunCommitter.STAGING))) {
            assertEquals(List.of(), s.toList(), "commit and abort leave neither staging nor lock");
        }
    }

    @Test
    void aDeadOwnersStagingAndLockAreClearedByARunOfAnotherId() throws Exception {
        RunOwner dead = owner(deadPid(), RunOwner.localHost(), Instant.parse("2026-01-01T00:00:00Z"), "killed");
        Path dir = staged(out, "killed", dead, true);
        RunCommitter.begin(new Configuration(), out.toString(), "other").abort();
        assertFalse(Files.exists(dir), "the dead run's staging is gone");
        assertFalse(Files.exists(out.resolve("_staging/run_id=killed.lock")), "and its lock");
        assertFalse(Files.exists(out.resolve("points/run_id=killed")), "nothing of it became visible");
    }

    @Test
    void aReusedPidWithAnotherStartTimeCountsAsDead() throws Exception {
        RunOwner reused = owner(ProcessHandle.current().pid(), RunOwner.localHost(),
                Instant.parse("2001-01-01T00:00:00Z"), "old");
        Path dir = staged(out, "old", reused, true);
        RunCommitter.begin(new Configuration(), out.toString(), "new").abort();
        assertFalse(Files.exists(dir));
    }

    @Test
    void aDeadOwnersCommitIntentIsRolledForward() throws Exception {
        RunOwner dead = owner(deadPid(), RunOwner.localHost(), null, "half");
        Path dir = staged(out, "half", dead, true);
        stage(dir, "frontier", "runs");
        Files.writeString(dir.resolve(RunCommitter.INTENT), "points\nfrontier\nruns");
        RunCommitter.begin(new Configuration(), out.toString(), "next").abort();
        assertEquals("staged runs", Files.readString(out.resolve("runs/run_id=half/part-0.parquet")));
        assertFalse(Files.exists(dir));
    }

    @Test
    void aLiveOwnersStagingIsLeftAlone() throws Exception {
        RunOwner self = RunOwner.current("run_id=live.1234");
        Path dir = staged(out, "live", self, true);
        RunCommitter.begin(new Configuration(), out.toString(), "other").abort();
        assertTrue(Files.exists(dir.resolve("points/part-0.parquet")), "a live run's staging is never touched");
        assertTrue(Files.exists(out.resolve("_staging/run_id=live.lock")));
    }

    @Test
    void anotherHostsStagingIsClearedOnlyAfterTenMinutesWithoutAHeartbeat() throws Exception {
        RunOwner remote = owner(1, "some-other-host", null, "remote");
        Path dir = staged(out, "remote", remote, true);
        Path lock = out.resolve("_staging/run_id=remote.lock");
        RunCommitter.begin(new Configuration(), out.toString(), "a").abort();
        assertTrue(Files.exists(dir), "another host's run within the stale window is left alone");
        FileTime nineMinutesAgo = FileTime.from(Instant.now().minusSeconds(9 * 60));
        Files.setLastModifiedTime(dir, nineMinutesAgo);
        Files.setLastModifiedTime(lock, nineMinutesAgo);
        RunCommitter.begin(new Configuration(), out.toString(), "b").abort();
        assertTrue(Files.exists(dir), "nine minutes of silence is not stale");
        FileTime elevenMinutesAgo = FileTime.from(Instant.now().minusSeconds(11 * 60));
        Files.setLastModifiedTime(dir, elevenMinutesAgo);
        Files.setLastModifiedTime(lock, elevenMinutesAgo);
        RunCommitter.begin(new Configuration(), out.toString(), "c").abort();
        assertFalse(Files.exists(dir), "eleven minutes without a heartbeat is stale");
        assertFalse(Files.exists(lock));
    }

    @Test
    void aLockCutShortIsHeldUntilStale() throws Exception {
        Path lock = out.resolve("_staging/run_id=torn.lock");
        Files.createDirectories(lock.getParent());
        Files.writeString(lock, "pid=12");
        RunLockedException e = assertThrows(RunLockedException.class,
                () -> RunCommitter.begin(new Configuration(), out.toString(), "torn"));
        assertTrue(e.getMessage().startsWith("run id 'torn' is in use by a run whose lock cannot be read (lock "),
                e.getMessage());
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minusSeconds(11 * 60)));
        RunCommitter.begin(new Configuration(), out.toString(), "torn").abort();
    }

    @Test
    void ownerRecordsRoundTrip() {
        RunOwner o = RunOwner.current("run_id=x.1");
        assertEquals(o, RunOwner.parse(o.toText()).orElseThrow());
        assertTrue(RunOwner.parse("pid=1\nhost=h\n").isEmpty());
    }
}
