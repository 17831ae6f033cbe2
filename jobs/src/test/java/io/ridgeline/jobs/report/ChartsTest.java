package io.ridgeline.jobs.report;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Chart datasets hold what the results say (series, values), and the PNGs are real images of the asked size. */
class ChartsTest {
    @TempDir
    Path dir;

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private static ResultRows points() {
        List<String> cols = List.of("chip", "cost_usd", "tokens_per_s", "frontier_group");
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"a100-80g", 3.8e6, 5e4, "model=a"});
        rows.add(new Object[]{"h100-sxm", 7.7e6, 1.2e5, "model=a"});
        rows.add(new Object[]{"h100-sxm", 15.4e6, 2.2e5, "model=a"});
        rows.add(new Object[]{"b200", 10.2e6, 2.6e5, "model=b"});
        rows.add(new Object[]{"b200", 20.5e6, null, "model=b"});
        return new ResultRows("points", cols, rows);
    }

    private static ResultRows frontier() {
        List<String> cols = List.of("chip", "cost_usd", "tokens_per_s", "frontier_group");
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"h100-sxm", 7.7e6, 1.2e5, "model=a"});
        rows.add(new Object[]{"a100-80g", 3.8e6, 5e4, "model=a"});
        rows.add(new Object[]{"b200", 10.2e6, 2.6e5, "model=b"});
        return new ResultRows("frontier", cols, rows);
    }

    private void assertPng(Path f, int w, int h) throws Exception {
        byte[] head = Arrays.copyOf(Files.readAllBytes(f), 8);
        assertArrayEquals(PNG_MAGIC, head, "PNG signature");
        BufferedImage img = ImageIO.read(f.toFile());
        assertNotNull(img, "decodable image");
        assertEquals(w, img.getWidth());
        assertEquals(h, img.getHeight());
    }

    @Test
    void frontierScatterHasOneSeriesPerChipAndOnePerFrontierGroup() throws Exception {
        XYSeriesCollection ds = FrontierChart.dataset(points(), frontier(), "cost_usd", "tokens_per_s", "chip");
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < ds.getSeriesCount(); s++) {
            keys.add(ds.getSeriesKey(s).toString());
        }
        assertEquals(List.of("a100-80g", "h100-sxm", "b200", "frontier model=a", "frontier model=b"), keys);
        assertEquals(1, ds.getSeries("b200").getItemCount(), "rows without a y value are skipped");
        XYSeries a = ds.getSeries("frontier model=a");
        assertEquals(3.8e6, a.getX(0).doubleValue(), "frontier line sorted by x");
        assertEquals(1.2e5, a.getY(1).doubleValue());
        Path f = dir.resolve("frontier.png");
        Png.write(FrontierChart.chart(ds, "points", "cost_usd", "tokens_per_s", "t", "s",
                FrontierChart.Scale.AUTO), f, 640, 480);
        assertPng(f, 640, 480);
    }

    @Test
    void breakdownKeepsNonZeroComponentsAndSumsToTheStepTime() throws Exception {
        List<String> cols = new ArrayList<>(List.of("model", "chip", "gpu_count", "tp", "pp", "dp", "cp", "ep",
                "micro_batch", "step_time_s"));
        cols.addAll(BreakdownChart.columns());
        List<Object[]> rows = new ArrayList<>();
        // compute, memory, tp, cp, ep, pp, dp, bubble, optimizer, overhead
        rows.add(new Object[]{"m", "h100-sxm", 256, 2, 4, 32, 1, 1, 1, 10.0, 8.0, 0.5, 0.5, 0.0, 0.0, 0.1, 0.4, 0.5,
                0.0, 0.0});
        rows.add(new Object[]{"m", "b200", 256, 2, 1, 128, 2, 1, 2, 5.0, 4.0, 0.2, 0.3, 0.2, 0.0, 0.0, 0.3, 0.0,
                0.0, 0.0});
        DefaultCategoryDataset ds = BreakdownChart.dataset(new ResultRows("frontier", cols, rows));
        assertEquals(List.of("compute", "memory-bound", "TP comm", "CP comm", "PP comm", "DP comm", "pipeline bubble"),
                ds.getRowKeys().stream().map(Object::toString).toList(), "all-zero components are left out");
        assertEquals(List.of("h100-sxm x256 tp2 pp4 dp32 mb1", "b200 x256 tp2 pp1 dp128 cp2 mb2"),
                ds.getColumnKeys().stream().map(Object::toString).toList());
        for (int c = 0; c < 2; c++) {
            double sum = 0;
            for (int r = 0; r < ds.getRowCount(); r++) {
                sum += ds.getValue(r, c).doubleValue();
            }
            assertEquals((double) rows.get(c)[9], sum, 1e-12);
        }
        assertEquals("compute 80%, memory-bound 5%, TP comm 5%, PP comm 1%, DP comm 4%, pipeline bubble 5%",
                BreakdownChart.shares(ds, 0));
        Path f = dir.resolve("breakdown.png");
        Png.write(BreakdownChart.chart(ds, "t", "s", 600), f, 800, 600);
        assertPng(f, 800, 600);
    }

    @Test
    void rooflineHasTwoRoofsAndGemmsUnderTheSustainedRoof() throws Exception {
        Chip h100 = HardwareCatalog.bundled().chip("h100-sxm");
        assertEquals(2, RooflineChart.dataset(h100, Precision.BF16, List.of()).getSeriesCount());
        XYSeriesCollection ds = RooflineChart.dataset(h100, Precision.BF16, RooflineChart.DEFAULT_GEMMS);
        assertEquals(List.of(RooflineChart.DATASHEET, RooflineChart.SUSTAINED, RooflineChart.GEMMS),
                List.of(ds.getSeriesKey(0), ds.getSeriesKey(1), ds.getSeriesKey(2)));
        XYSeries datasheet = ds.getSeries(0);
        double peak = h100.peakFlopsPerSecond(Precision.BF16);
        assertEquals(peak, datasheet.getMaxY(), peak * 1e-12, "flat roof at the datasheet peak");
        assertEquals(RooflineChart.MIN_INTENSITY * h100.memoryBytesPerSecond(), datasheet.getY(0).doubleValue(),
                1, "sloped roof = intensity x bandwidth");
        double sustained = RooflineChart.sustainedFlopsPerSecond(h100, Precision.BF16);
        XYSeries g = ds.getSeries(2);
        assertEquals(RooflineChart.DEFAULT_GEMMS.size(), g.getItemCount());
        for (int i = 0; i < g.getItemCount(); i++) {
            double ai = g.getX(i).doubleValue();
            double roof = Math.min(sustained, ai * h100.effectiveMemoryBytesPerSecond());
            assertTrue(g.getY(i).doubleValue() <= roof * (1 + 1e-9), "GEMM " + i + " above the sustained roof");
        }
        // A big square GEMM gets close to the compute roof; a tiny one does not.
        RooflineChart.Gemm big = new RooflineChart.Gemm(8192, 8192, 8192);
        assertEquals(8192.0 * 8192 * 8192 * 2 / (3.0 * 8192 * 8192) / 2, big.intensity(Precision.BF16), 1e-9);
        Path f = dir.resolve("roofline.png");
        Png.write(RooflineChart.chart(ds, h100, Precision.BF16, RooflineChart.DEFAULT_GEMMS), f, 1000, 700);
        assertPng(f, 1000, 700);
    }

    @Test
    void parsesGemmShapes() {
        assertEquals(new RooflineChart.Gemm(16, 4096, 512), RooflineChart.Gemm.parse("16x4096X512"));
        assertEquals(null, RooflineChart.Gemm.parse("16x4096"));
        assertEquals(null, RooflineChart.Gemm.parse("0x1x1"));
        assertThrows(IllegalArgumentException.class, () -> Png.write(null, dir.resolve("x.png"), 50, 50));
    }

    @Test
    void seriesChartKeepsRowOrderAndSplitsSeriesByColumnsOrByLabel() throws Exception {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"12nm", "hdr", 1.0, 0.5, 0.2});
        rows.add(new Object[]{"7nm", "hdr", 2.0, 0.4, 0.3});
        rows.add(new Object[]{"12nm", "xdr", 1.5, 0.5, 0.1});
        rows.add(new Object[]{"7nm", "xdr", 3.0, null, 0.1});
        ResultRows r = new ResultRows("query", List.of("node", "net", "tps", "compute", "network"), rows);

        DefaultCategoryDataset bySeries = SeriesChart.dataset(r, "node", List.of("tps"), "net", null);
        assertEquals(List.of("12nm", "7nm"), bySeries.getColumnKeys());
        assertEquals(List.of("hdr", "xdr"), bySeries.getRowKeys());
        assertEquals(3.0, bySeries.getValue("xdr", "7nm").doubleValue());

        DefaultCategoryDataset byColumns = SeriesChart.dataset(new ResultRows("query", r.columns(), rows.subList(0, 2)), "node", List.of("compute",
                "network"), null, List.of("compute time", "network time"));
        assertEquals(List.of("compute time", "network time"), byColumns.getRowKeys());
        assertEquals(0.3, byColumns.getValue("network time", "7nm").doubleValue());
        // a null cell is left out, not drawn as zero
        DefaultCategoryDataset gaps = SeriesChart.dataset(r, "net", List.of("compute"), "node", null);
        assertEquals(null, gaps.getValue("7nm", "xdr"));

        assertThrows(IllegalArgumentException.class, () -> SeriesChart.dataset(r, "node", List.of("tps", "compute"),
                "net", null));
        assertThrows(IllegalArgumentException.class, () -> SeriesChart.dataset(r, "node", List.of("tps"), null,
                List.of("a", "b")));
        for (SeriesChart.Kind k : SeriesChart.Kind.values()) {
            Path f = dir.resolve("series-" + k + ".png");
            Png.write(SeriesChart.chart(bySeries, k, "t", "s", "node", "tokens/s", k == SeriesChart.Kind.LINE,
                    k == SeriesChart.Kind.BAR), f, 640, 400);
            assertPng(f, 640, 400);
        }
    }

    @Test
    void barLabelsAreDrawnExactlyWhenEveryBarHasALineOfHeight() {
        assertEquals(StackedBarChart.FURNITURE_PX + 15 * StackedBarChart.LABEL_BAND_PX,
                StackedBarChart.heightForSubLabels(15));
        assertTrue(StackedBarChart.subLabelsFit(15, StackedBarChart.heightForSubLabels(15)));
        assertFalse(StackedBarChart.subLabelsFit(15, StackedBarChart.heightForSubLabels(15) - 1));
        assertFalse(StackedBarChart.subLabelsFit(0, 800), "no bars, nothing to label");
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (int i = 0; i < 30; i++) {
            ds.addValue(1.0 + i, "compute", "plan " + i);
            ds.addValue(0.5, "TP comm", "plan " + i);
        }
        int fits = StackedBarChart.heightForSubLabels(30);
        String labelled = ChartImage.svgElement(BreakdownChart.chart(ds, "t", "s", fits), 800, fits, "a");
        for (int i = 0; i < 30; i++) {
            String share = String.format(java.util.Locale.ROOT, "compute %.0f%%, TP %.0f%%", 100 * (1.0 + i)
                    / (1.5 + i), 100 * 0.5 / (1.5 + i));
            assertTrue(labelled.contains(share + "</text>"), "bar " + i + " labelled " + share);
        }
        String crowded = ChartImage.svgElement(BreakdownChart.chart(ds, "t", "s", fits - 1), 800, fits - 1, "b");
        assertFalse(crowded.contains("compute 67%"), "no shares when a bar lacks its line");
        assertTrue(crowded.contains("shares per bar left out: 30 bars need " + fits + " px"));
    }

    @Test
    void memoryBarsAddUpToCapacity() {
        List<String> cols = List.of("chip", "gpu_count", "tp", "pp", "dp", "weight_bytes", "gradient_bytes",
                "activation_bytes", "kv_cache_bytes", "reserve_bytes", "hbm_bytes", "hbm_capacity_bytes");
        double gib = 1024.0 * 1024 * 1024;
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"h100-sxm", 8, 8, 1, 1, 20 * gib, 0.0, 2 * gib, 30 * gib, 8 * gib, 60 * gib, 80 * gib});
        rows.add(new Object[]{"b200", 8, 4, 1, 2, 35 * gib, 0.0, 3 * gib, 10 * gib, 18 * gib, 66 * gib, 180 * gib});
        DefaultCategoryDataset ds = MemoryChart.dataset(new ResultRows("frontier", cols, rows));
        assertEquals(List.of("weights", "activations", "KV cache", "framework reserve", "free"), ds.getRowKeys(),
                "gradients are zero on every row: left out");
        for (int c = 0; c < ds.getColumnCount(); c++) {
            double sum = 0;
            for (int s = 0; s < ds.getRowCount(); s++) {
                sum += ds.getValue(s, c).doubleValue();
            }
            assertEquals(c == 0 ? 80 : 180, sum, 1e-9, "a bar ends at its capacity");
        }
        assertEquals("60.0 of 80 GiB used, 25% free", MemoryChart.usage(ds, 0));
    }
}
