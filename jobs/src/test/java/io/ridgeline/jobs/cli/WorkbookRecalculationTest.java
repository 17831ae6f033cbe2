package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/check-workbook on the TCO workbook of a run with non-default costs ($0.30/kWh, PUE 1.4): LibreOffice opens
 * it, recalculates every formula after PUE is doubled, and wall power and energy cost must follow while capex stays.
 * Needs LibreOffice (skipped without it on a developer machine; .ci/run installs it and makes a missing one fail).
 */
class WorkbookRecalculationTest {
    @TempDir
    Path dir;

    @Test
    void libreOfficeRecalculatesTheExportedWorkbook() throws Exception {
        ExternalTool.LIBREOFFICE.require();
        CliRun export = CliRun.of("export", "--out", SweptResults.get().toString(), "--run", SweptResults.EARLIER,
                "--format", "xlsx", "--to", dir.toString());
        assertEquals(0, export.code(), export.err());
        Path book = dir.resolve(SweptResults.EARLIER + "-tco.xlsx");
        assertTrue(Files.size(book) > 0, "workbook written");
        Path script = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("scripts/check-workbook");
        Process p = new ProcessBuilder("bash", script.toString(), book.toString()).redirectErrorStream(true)
                .directory(dir.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "check-workbook finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        CliRun rows = CliRun.of("sql", "--out", SweptResults.get().toString(), "--max-rows", "0",
                "select * from frontier where run_id = '" + SweptResults.EARLIER + "'");
        java.util.regex.Matcher n = java.util.regex.Pattern.compile("\\((\\d+) rows").matcher(rows.out());
        assertTrue(n.find(), rows.out());
        assertTrue(out.matches("(?s).*LibreOffice recalculated " + n.group(1) + " Frontier rows after PUE [0-9.]+ -> "
                + "[0-9.]+: all consistent.*"), "every frontier row of the run: " + out);
    }
}
