package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small version of sweeps/serving-70b.yaml (one chip, three concurrency caps, aggregated and 1:1) runs through the
 * {@code sweep} command, its frontier trades speed per user for throughput per GPU, and {@code plot
 * latency-throughput} draws it as PNG and SVG.
 */
class ServingFrontierPlotTest {
    @TempDir
    Path dir;

    @Test
    void aSmallServing70bRunsAndItsLatencyThroughputFrontierIsPlotted() throws Exception {
        Path file = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("sweeps/serving-70b.yaml");
        String full = Files.readString(file);
        String small = full.replace("presets: [h100-sxm, h200, b200, gb200]", "presets: [b200]")
                .replace("concurrency: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]", "concurrency: [1, 16, 256]")
                .replace("disaggregation: [none, \"1:1\", \"1:3\"]", "disaggregation: [none, \"1:1\"]");
        assertEquals(2, full.split("concurrency: \\[1, 2, 4").length - 1, "sweeps/serving-70b.yaml changed: update "
                + "the small variant");
        Path smallFile = dir.resolve("serving-70b-small.yaml");
        Files.writeString(smallFile, small);
        Path out = dir.resolve("results");
        CliRun run = CliRun.of("sweep", smallFile.toString(), "--out", out.toString(), "--run-id", "serving-small",
                "--yes");
        assertEquals(0, run.code(), run.err() + run.out());
        // 2 precisions x 3 caps x 2 splits on one chip.
        assertTrue(run.out().contains("12 points"), run.out());

        // One frontier per chip and precision: the fp8 one on B200.
        List<double[]> frontier = new ArrayList<>();
        int frontierRows;
        try (Duck duck = new Duck(out); Statement st = duck.connection.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT output_tokens_per_s_per_user, output_tokens_per_s_per_gpu "
                    + "FROM frontier WHERE weight_precision = 'fp8' ORDER BY output_tokens_per_s_per_user")) {
                while (rs.next()) {
                    frontier.add(new double[]{rs.getDouble(1), rs.getDouble(2)});
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM frontier")) {
                rs.next();
                frontierRows = rs.getInt(1);
            }
        }
        assertTrue(frontier.size() >= 3, "frontier rows: " + frontier.size());
        for (int i = 1; i < frontier.size(); i++) {
            assertTrue(frontier.get(i)[0] > frontier.get(i - 1)[0], "distinct speeds per user along the frontier");
            assertTrue(frontier.get(i)[1] < frontier.get(i - 1)[1], "faster users, less per GPU: row " + i);
        }

        Path png = dir.resolve("lt.png");
        Path svg = dir.resolve("lt.svg");
        CliRun plot = CliRun.of("plot", "latency-throughput", "--out", out.toString(), "--run", "serving-small",
                "--png", png.toString(), "--svg", svg.toString(), "--width", "900", "--height", "700");
        assertEquals(0, plot.code(), plot.err());
        assertTrue(plot.out().startsWith("wrote " + png + " and " + svg + " (900x700 px"), plot.out());
        assertTrue(plot.out().contains(frontierRows + " frontier rows"), plot.out());
        assertEquals(900, ImageIO.read(png.toFile()).getWidth());
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile())
                .getDocumentElement();
        assertEquals("svg", root.getTagName());
        String text = Files.readString(svg);
        assertTrue(text.contains("output_tokens_per_s_per_user") && text.contains("output_tokens_per_s_per_gpu"),
                "both axes labelled");
    }
}
