package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ridgeline report} over real runs ({@link SweptResults}): what the page holds, and how runs are chosen. */
class ReportCommandTest {
    @TempDir
    Path dir;

    private String report(String... args) throws Exception {
        Path f = dir.resolve("r.html");
        String[] all = new String[args.length + 5];
        all[0] = "report";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--out";
        all[args.length + 2] = SweptResults.get().toString();
        all[args.length + 3] = "--html";
        all[args.length + 4] = f.toString();
        CliRun r = CliRun.of(all);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote " + f + " ("), r.out());
        return Files.readString(f);
    }

    @Test
    void thePageIsSelfContained() throws Exception {
        String html = report(SweptResults.LATEST);
        // Namespace names inside <svg> are identifiers, not loads; nothing else may point anywhere.
        String stripped = html.replace("xmlns='http://www.w3.org/2000/svg'", "")
                .replace("xmlns:xlink='http://www.w3.org/1999/xlink'", "")
                .replace("xmlns:jfreesvg='http://www.jfree.org/jfreesvg/svg'", "");
        for (String external : List.of("http:", "https:", "src=", "@import", "<link rel=\"stylesheet\"",
                "url(http", "//fonts.")) {
            assertFalse(stripped.contains(external), "external reference " + external);
        }
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("<style>") && html.contains("<script>"));
        assertEquals(5, count(html, "<svg "), "scatter, breakdown, roofline, bottlenecks, memory");
    }

    @Test
    void theManifestFrontierAndChartsDescribeTheRun() throws Exception {
        String html = report("--run", SweptResults.LATEST);
        assertTrue(html.contains("<dt>sweep_name</dt><dd>quickstart</dd>"), "manifest");
        assertTrue(html.contains("<dt>status ok</dt><dd>120</dd>"), "counts by status");
        assertTrue(html.contains("<dt>total_s</dt><dd>"), "timings");
        assertTrue(Pattern.compile("<dt>spec_sha256</dt><dd>[0-9a-f]{64}</dd>").matcher(html).find(), "spec hash");
        assertEquals(15, count(section(html, "frontier"), "<tr><td>"), "the quickstart's 15 frontier rows");
        assertTrue(section(html, "frontier").contains("Same on every row: phase training"), "constant columns named");
        // Every breakdown bar carries its shares; every memory bar its usage.
        assertEquals(15, Pattern.compile(">\\s*compute \\d+%, ").matcher(section(html, "step-time")).results().count(),
                "15 bars with shares");
        assertEquals(15, count(section(html, "memory"), " GiB used, "), "15 bars with usage");
        assertTrue(section(html, "roofline").contains("<td>gpt3-175b</td><td>QKV</td>"), "operators table");
        assertTrue(section(html, "bottlenecks").contains("stacked by chip: compute: 120."), section(html,
                "bottlenecks"));
    }

    @Test
    void theChangesAreThoseOfRidgelineDiffAgainstThePreviousRunOfTheSweep() throws Exception {
        String changes = section(report(SweptResults.LATEST), "changes");
        assertTrue(changes.contains("Against " + SweptResults.EARLIER + ", the previous run of sweep quickstart"),
                changes);
        CliRun diff = CliRun.of("diff", SweptResults.EARLIER, SweptResults.LATEST, "--out",
                SweptResults.get().toString());
        assertEquals(0, diff.code(), diff.err());
        for (String kind : List.of("appeared", "disappeared", "moved")) {
            long cli = diff.out().lines().filter(l -> l.startsWith(kind + " ")).count();
            Matcher m = Pattern.compile("(\\d+) " + (kind.equals("appeared") ? "frontier points appeared" : kind))
                    .matcher(changes);
            assertTrue(m.find(), kind + " in " + changes);
            assertEquals(cli, Long.parseLong(m.group(1)), kind + " as ridgeline diff counts them");
            assertEquals(cli, count(changes, "<tr><td>" + kind + "</td>"), kind + " rows in the table");
        }
        // EARLIER had no B200: its 15 frontier rows all went, and B200 rows came.
        assertTrue(changes.contains("<tr><td>appeared</td><td>model=gpt3-175b</td><td>b200</td>"), changes);
        String first = section(report(SweptResults.EARLIER), "changes");
        assertTrue(first.contains("No earlier run of sweep quickstart in this results directory"), first);
    }

    @Test
    void anInferenceRunShowsWhatAppliesToServing() throws Exception {
        String html = report(SweptResults.SERVING);
        assertTrue(section(html, "step-time").contains("Inference rows have no step-time breakdown"));
        assertFalse(section(html, "step-time").contains("<svg"));
        String frontier = section(html, "frontier");
        assertTrue(frontier.contains("<th>ttft_s [s]</th>") && frontier.contains("<th>tpot_s [s]</th>"));
        assertFalse(frontier.contains("step_time_s"), "training columns left out");
        String roofline = section(html, "roofline");
        assertTrue(roofline.contains("decode QKV</td><td class=\"n\" data-v=\"1\">1</td>"),
                "decode GEMMs at batch 1");
        assertTrue(Pattern.compile("decode [^<]+</td><td class=\"n\" data-v=\"1\">1</td>(<td[^>]*>[^<]*</td>){5}"
                + "<td>memory</td>").matcher(roofline).find(), "batch-1 decode is memory-bound");
        assertTrue(section(html, "memory").contains("KV cache"), "the memory chart shows the KV cache");
        assertTrue(html.contains("No earlier run of sweep serving-small"));
    }

    @Test
    void runsAreChosenLikeExportAndPlot() throws Exception {
        String latest = report();
        assertTrue(latest.contains("<title>Ridgeline run " + SweptResults.SERVING + "</title>"), "latest by default");
        String out = SweptResults.get().toString();
        CliRun both = CliRun.of("report", SweptResults.LATEST, "--run", SweptResults.EARLIER, "--out", out);
        assertEquals(2, both.code());
        assertTrue(both.err().startsWith("RUN: run: expected one run: RUN or --run, or both the same, found '"
                + SweptResults.LATEST + "' and --run '" + SweptResults.EARLIER + "'"), both.err());
        CliRun unknown = CliRun.of("report", "quickstart-latst", "--out", out, "--html", dir.resolve("x.html")
                .toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--run: expected a committed run id: one of [") && unknown.err().contains(
                "(did you mean '" + SweptResults.LATEST + "'?), found 'quickstart-latst'"), unknown.err());
        assertFalse(Files.exists(dir.resolve("x.html")), "nothing written on invalid input");
        String filtered = report(SweptResults.LATEST, "--where", "model = 'llama3-8b'");
        assertEquals(5, count(section(filtered, "frontier"), "<tr><td>"), "--where filters the rows");
    }

    private static String section(String html, String id) {
        int start = html.indexOf("<section id=\"" + id + "\">");
        assertTrue(start >= 0, "section " + id);
        return html.substring(start, html.indexOf("</section>", start));
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }
}
