package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/submit splits spark-submit options from the ridgeline command the same way for {@code --master URL} and
 * {@code --master=URL} (spark-submit itself accepts both; the script used to eat the next word after the latter).
 */
class SubmitScriptTest {
    private static final Path SCRIPT = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve(
            "scripts/submit");

    private static List<String> split(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("RIDGELINE_SUBMIT_PRINT", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    @Test
    void masterWithEqualsIsOneOptionAndTheCommandStaysWhole() throws Exception {
        assertEquals(List.of("spark-submit --master=spark://host:7077", "spark-submit --conf",
                "spark-submit spark.executor.memory=4g", "spark-submit --verbose", "ridgeline sweep",
                "ridgeline sweeps/quickstart.yaml", "ridgeline --out", "ridgeline hdfs:///r"),
                split("--master=spark://host:7077", "--conf", "spark.executor.memory=4g", "--verbose", "sweep",
                        "sweeps/quickstart.yaml", "--out", "hdfs:///r"));
        assertEquals(List.of("spark-submit --master", "spark-submit spark://host:7077", "ridgeline sweep",
                "ridgeline sweeps/quickstart.yaml"), split("--master", "spark://host:7077", "sweep",
                "sweeps/quickstart.yaml"));
    }

    @Test
    void anOptionWithoutItsValueIsRefused() throws Exception {
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), "--master").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue());
        assertEquals("submit: --master needs a value\n", out);
    }
}
