package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every plot kind as PNG and SVG over real runs ({@link SweptResults}), and the breakdown's shares. */
class PlotCommandTest {
    @TempDir
    Path dir;

    @Test
    void everyPlotKindWritesTheSameDrawingAsPngAndSvg() throws Exception {
        String out = SweptResults.get().toString();
        List<List<String>> kinds = List.of(
                List.of("frontier", "--out", out, "--run", SweptResults.LATEST),
                List.of("breakdown", "--out", out, "--run", SweptResults.LATEST),
                List.of("roofline", "--gpu", "h100-sxm"),
                List.of("series", "--out", out, "--query", "select chip, count(*) as n from points group by chip "
                        + "order by chip", "--x", "chip", "--y", "n", "--kind", "bar"));
        for (List<String> k : kinds) {
            Path png = dir.resolve(k.get(0) + ".png");
            Path svg = dir.resolve(k.get(0) + ".svg");
            String[] args = concat(List.of("plot"), k, List.of("--png", png.toString(), "--svg", svg.toString(),
                    "--width", "900", "--height", "700"));
            CliRun r = CliRun.of(args);
            assertEquals(0, r.code(), k + ": " + r.err());
            assertTrue(r.out().startsWith("wrote " + png + " and " + svg + " (900x700 px"), r.out());
            assertEquals(900, ImageIO.read(png.toFile()).getWidth());
            Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile())
                    .getDocumentElement();
            assertEquals("svg", root.getTagName(), k.get(0));
            assertEquals("900", root.getAttribute("width"));
            assertEquals("700", root.getAttribute("height"));
            assertTrue(root.getElementsByTagName("text").getLength() > 10, k.get(0) + ": labels are SVG text");
            String text = Files.readString(svg);
            assertFalse(text.contains("<image"), k.get(0) + ": vector drawing, no embedded raster");
        }
        Path only = dir.resolve("only.svg");
        CliRun r = CliRun.of("plot", "roofline", "--gpu", "b200", "--svg", only.toString());
        assertTrue(r.out().startsWith("wrote " + only + " (1200x800 px"), "--svg alone writes no PNG: " + r.out());
    }

    @Test
    void breakdownPrintsEveryBarsSharesAndDrawsThemBesideTheBars() throws Exception {
        Path svg = dir.resolve("b.svg");
        CliRun r = CliRun.of("plot", "breakdown", "--out", SweptResults.get().toString(), "--run", SweptResults.LATEST,
                "--svg", svg.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(", 15 bars, "), r.out());
        long printed = r.out().lines().filter(l -> l.startsWith("  ") && l.contains(": compute ")).count();
        assertEquals(15, printed, "every bar's shares printed, not the first 5: " + r.out());
        String drawn = Files.readString(svg);
        assertEquals(15, Pattern.compile(">\\s*compute \\d+%").matcher(drawn).results().count(),
                "every bar's shares drawn at 800 px");
        Path thin = dir.resolve("thin.svg");
        CliRun t = CliRun.of("plot", "breakdown", "--out", SweptResults.get().toString(), "--run", SweptResults.LATEST,
                "--svg", thin.toString(), "--height", "300");
        assertEquals(15, t.out().lines().filter(l -> l.startsWith("  ") && l.contains(": compute ")).count());
        String thinSvg = Files.readString(thin);
        assertEquals(0, Pattern.compile(">\\s*compute \\d+%").matcher(thinSvg).results().count(),
                "15 bars in 300 px have no room for shares");
        assertTrue(thinSvg.contains("shares per bar left out: 15 bars need 350 px"), "the chart says why");
    }

    private static String[] concat(List<String> a, List<String> b, List<String> c) {
        return java.util.stream.Stream.of(a, b, c).flatMap(List::stream).toArray(String[]::new);
    }
}
