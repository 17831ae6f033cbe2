package io.ridgeline.jobs.sweep;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commit lifecycle without Spark: a crash after the intent is rolled forward, one before it never shows. */
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
}
