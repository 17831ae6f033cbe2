package io.ridgeline.jobs.sweep;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Spark standalone master and worker started from the Maven jars on 127.0.0.1, a sweep submitted through
 * {@code org.apache.spark.deploy.SparkSubmit} with thin jars, and its frontier compared row for row with a local run.
 */
class StandaloneClusterTest {
    @TempDir
    static Path dir;
    private static final List<Process> daemons = new ArrayList<>();
    private static String masterUrl;
    private static List<String> classpath;
    private static Path appJar;
    private static String extraJars;

    static final String SWEEP = String.join("\n",
            "name: cluster-check",
            "models: [gpt3-175b, llama2-13b]",
            "phases: [{phase: training, seq_len: [2048], global_batch: [512, 1024]}]",
            "hardware: {presets: [a100-80g, h100-sxm]}",
            "cluster: {gpu_count: [64, 128, 256]}",
            "parallelism: {tp: [2, 4, 8], pp: [1, 2, 4, 8], micro_batch: [1, 2]}",
            "objectives: [{max: tokens_per_s}, {min: energy_per_token_j}]",
            "frontier: {group_by: [model, chip]}",
            "");

    private static List<String> flags() {
        List<String> f = new ArrayList<>(Arrays.asList(System.getProperty("ridgeline.spark.jvm.flags", "")
                .trim().split("\\s+")));
        f.removeIf(String::isEmpty);
        return f;
    }

    private static Process java(String mainClass, List<String> args, Path log, Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.addAll(flags());
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, classpath));
        cmd.add(mainClass);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    private static Map<String, String> sparkEnv() {
        return Map.of("SPARK_HOME", dir.resolve("spark-home").toString(), "SPARK_SCALA_VERSION", "2.13",
                "SPARK_LOCAL_IP", "127.0.0.1");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A thin jar of one module's compiled classes (the test runs before Maven's package phase). */
    private static Path jarOf(Path classes, Path jar) throws IOException {
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
             Stream<Path> files = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                j.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
                Files.copy(p, j);
                j.closeEntry();
            }
        }
        return jar;
    }

    @BeforeAll
    static void startCluster() throws Exception {
        classpath = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        // The worker builds executor command lines from SPARK_HOME/jars: link the Maven jars there.
        Path jars = Files.createDirectories(dir.resolve("spark-home/jars"));
        List<String> thin = new ArrayList<>();
        for (String entry : classpath) {
            Path p = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                Path link = jars.resolve(p.getFileName());
                if (!Files.exists(link)) {
                    Files.createSymbolicLink(link, p);
                }
            } else if (Files.isDirectory(p) && p.endsWith(Path.of("target", "classes"))) {
                String module = p.getParent().getParent().getFileName().toString();
                thin.add(jarOf(p, dir.resolve("ridgeline-" + module + ".jar")).toString());
            }
        }
        appJar = Path.of(thin.stream().filter(s -> s.endsWith("ridgeline-jobs.jar")).findFirst().orElseThrow());
        extraJars = String.join(",", thin.stream().filter(s -> !s.endsWith("ridgeline-jobs.jar")).toList());

        int port = freePort();
        int ui = freePort();
        masterUrl = "spark://127.0.0.1:" + port;
        daemons.add(java("org.apache.spark.deploy.master.Master", List.of("--host", "127.0.0.1", "--port",
                String.valueOf(port), "--webui-port", String.valueOf(ui)), dir.resolve("master.log"), sparkEnv()));
        daemons.add(java("org.apache.spark.deploy.worker.Worker", List.of("--host", "127.0.0.1", "--cores", "2",
                "--memory", "1500m", "--webui-port", String.valueOf(freePort()), masterUrl),
                dir.resolve("worker.log"), sparkEnv()));
        // The master's JSON status page says when the worker has registered (logs are quiet at level warn).
        URI status = URI.create("http://127.0.0.1:" + ui + "/json/");
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String body = "";
        while (System.nanoTime() < deadline) {
            try {
                body = http.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString()).body();
                if (body.replace(" ", "").contains("\"aliveworkers\":1")) {
                    return;
                }
            } catch (IOException notYet) {
                // master not listening yet
            }
            Thread.sleep(300);
        }
        throw new AssertionError("worker never registered; master status: " + body + "\nmaster log:\n"
                + Files.readString(dir.resolve("master.log")) + "\nworker log:\n"
                + Files.readString(dir.resolve("worker.log")));
    }

    @AfterAll
    static void stopCluster() {
        for (Process p : daemons) {
            p.destroy();
        }
        for (Process p : daemons) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void clusterFrontierEqualsTheLocalFrontierRowForRow() throws Exception {
        Path sweep = dir.resolve("cluster-check.yaml");
        Files.writeString(sweep, SWEEP);
        Path out = dir.resolve("out");
        Process submit = java("org.apache.spark.deploy.SparkSubmit", List.of("--master", masterUrl,
                "--conf", "spark.executor.memory=1g", "--class", "io.ridgeline.jobs.cli.RidgelineCli", "--jars",
                extraJars, appJar.toString(), "sweep", sweep.toString(), "--out", out.toString(), "--run-id",
                "cluster"), dir.resolve("submit.log"), sparkEnv());
        assertTrue(submit.waitFor(240, TimeUnit.SECONDS), "submit timed out");
        assertEquals(0, submit.exitValue(), Files.readString(dir.resolve("submit.log")));

        Process local = java("io.ridgeline.jobs.cli.RidgelineCli", List.of("sweep", sweep.toString(), "--out",
                out.toString(), "--run-id", "local", "--master", "local[2]"), dir.resolve("local.log"), sparkEnv());
        assertTrue(local.waitFor(240, TimeUnit.SECONDS), "local run timed out");
        assertEquals(0, local.exitValue(), Files.readString(dir.resolve("local.log")));

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            String src = "read_parquet('" + out.resolve("frontier") + "/*/*.parquet', hive_partitioning = true, "
                    + "hive_types = {'run_id': VARCHAR})";
            List<String> cluster = rows(st, "SELECT * EXCLUDE (run_id) FROM " + src
                    + " WHERE run_id = 'cluster' ORDER BY ALL");
            List<String> localRows = rows(st, "SELECT * EXCLUDE (run_id) FROM " + src
                    + " WHERE run_id = 'local' ORDER BY ALL");
            assertTrue(cluster.size() >= 4, "frontier too small to prove anything: " + cluster.size());
            assertEquals(localRows, cluster);
            ResultSet rs = st.executeQuery("SELECT spark_master FROM read_parquet('" + out.resolve("runs")
                    + "/*/*.parquet', hive_partitioning = true, hive_types = {'run_id': VARCHAR}) "
                    + "WHERE run_id = 'cluster'");
            assertTrue(rs.next());
            assertEquals(masterUrl, rs.getString(1));
        }
    }

    private static List<String> rows(Statement st, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    sb.append(md.getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
                }
                out.add(sb.toString());
            }
        }
        return out;
    }
}
