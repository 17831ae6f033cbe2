package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of real sweeps opened in headless Chromium (Debian's chromium and chromedriver; nothing is downloaded):
 * no console errors, every chart drawn (each inline SVG has a non-empty bounding box), a screenshot that is not one
 * colour, and the frontier table sorts on a click.
 */
class ReportBrowserTest {
    @TempDir
    static Path tmp;
    private static ChromeDriver browser;
    private static ChromeDriverService service;

    @BeforeAll
    static void start() {
        ExternalTool.CHROMIUM.require();
        ChromeOptions o = new ChromeOptions();
        o.setBinary("/usr/bin/chromium");
        // The flags this machine's environment notes name: root needs --no-sandbox, and the closed network refuses
        // every background connection Chromium would otherwise try.
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + tmp.resolve("profile"), "--window-size=1200,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, o);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    private static Path report(String run) {
        Path f = tmp.resolve(run + ".html");
        CliRun r = CliRun.of("report", run, "--out", SweptResults.get().toString(), "--html", f.toString());
        assertEquals(0, r.code(), r.err());
        return f;
    }

    /** Opens the page and checks what every report must satisfy in a browser; returns its charts' boxes. */
    private static List<Map<String, Object>> openAndCheck(Path f, int expectedCharts) throws Exception {
        browser.manage().logs().get(LogType.BROWSER); // drop entries of earlier pages
        browser.get(f.toUri().toString());
        assertEquals("complete", browser.executeScript("return document.readyState"));
        List<String> severe = new ArrayList<>();
        for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(e.getMessage());
            }
        }
        assertTrue(severe.isEmpty(), "console errors: " + severe);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> boxes = (List<Map<String, Object>>) browser.executeScript(
                "return Array.from(document.querySelectorAll('svg')).map(function (s) {"
                        + " var b = s.getBBox(); var r = s.getBoundingClientRect();"
                        + " return {id: s.id, w: b.width, h: b.height, shownW: r.width, shownH: r.height,"
                        + " shapes: s.querySelectorAll('path, rect, line, text').length}; })");
        assertEquals(expectedCharts, boxes.size(), "one <svg> per chart: " + boxes);
        for (Map<String, Object> b : boxes) {
            assertTrue(((Number) b.get("w")).doubleValue() > 100 && ((Number) b.get("h")).doubleValue() > 100,
                    "chart drawn with a real extent: " + b);
            assertTrue(((Number) b.get("shownW")).doubleValue() > 100, "chart laid out on the page: " + b);
            assertTrue(((Number) b.get("shapes")).intValue() > 20, "chart has axes, marks and labels: " + b);
        }
        BufferedImage shot = ImageIO.read(new ByteArrayInputStream(browser.getScreenshotAs(OutputType.BYTES)));
        Map<Integer, Integer> colours = new HashMap<>();
        for (int y = 0; y < shot.getHeight(); y += 2) {
            for (int x = 0; x < shot.getWidth(); x += 2) {
                colours.merge(shot.getRGB(x, y), 1, Integer::sum);
            }
        }
        int samples = colours.values().stream().mapToInt(Integer::intValue).sum();
        int top = colours.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        assertTrue(colours.size() > 50, "a page of text and charts has many colours: " + colours.size());
        assertTrue(top < 0.97 * samples, "not one colour: the commonest covers " + top + " of " + samples);
        // The console capture itself works: an error logged now is seen (so an empty list above means something).
        browser.executeScript("console.error('ridgeline-probe')");
        assertTrue(browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .anyMatch(e -> e.getMessage().contains("ridgeline-probe")), "console errors are captured");
        return boxes;
    }

    @Test
    void quickstartReportRendersAndSortsInChromium() throws Exception {
        Path f = report(SweptResults.LATEST);
        long bytes = Files.size(f);
        assertTrue(bytes < 2_000_000, "the quickstart report stays under 2 MB: " + bytes);
        // scatter, breakdown, one roofline (every frontier row is on B200), bottlenecks, memory
        openAndCheck(f, 5);
        assertFalse(browser.findElements(By.cssSelector("#diff tbody tr")).isEmpty(), "diff against EARLIER");
        // Sorting: a click on tokens_per_s orders the rows ascending by it, a second click descending.
        WebElement header = browser.findElements(By.cssSelector("#frontier th")).stream()
                .filter(h -> h.getText().startsWith("tokens_per_s")).findFirst().orElseThrow();
        header.click();
        List<Double> up = column("frontier", header);
        assertTrue(up.size() == 15 && isSorted(up, 1), "ascending after one click: " + up);
        header.click();
        List<Double> down = column("frontier", header);
        assertTrue(isSorted(down, -1), "descending after a second click: " + down);
        assertEquals("descending", header.getAttribute("aria-sort"));
    }

    @Test
    void inferenceReportRendersInChromium() throws Exception {
        Path f = report(SweptResults.SERVING);
        // scatter, roofline on H100 and/or B200 (one per chip on the frontier), bottlenecks, memory; no breakdown
        long rooflines = Files.readString(f).split("Roofline: ", -1).length - 1;
        openAndCheck(f, 3 + (int) rooflines);
        assertTrue(browser.findElement(By.id("step-time")).getText().contains("Inference rows have no step-time "
                + "breakdown"));
        List<String> headers = browser.findElements(By.cssSelector("#frontier th")).stream().map(WebElement::getText)
                .toList();
        assertTrue(headers.contains("ttft_s [s]") && headers.contains("tpot_s [s]"), headers.toString());
        assertFalse(headers.contains("step_time_s [s]"), "no training columns: " + headers);
    }

    private static List<Double> column(String table, WebElement header) {
        List<WebElement> headers = browser.findElements(By.cssSelector("#" + table + " th"));
        int col = headers.indexOf(header);
        List<Double> values = new ArrayList<>();
        for (WebElement row : browser.findElements(By.cssSelector("#" + table + " tbody tr"))) {
            values.add(Double.parseDouble(row.findElements(By.tagName("td")).get(col).getAttribute("data-v")));
        }
        return values;
    }

    private static boolean isSorted(List<Double> v, int sign) {
        for (int i = 1; i < v.size(); i++) {
            if (sign * Double.compare(v.get(i), v.get(i - 1)) < 0) {
                return false;
            }
        }
        return true;
    }
}
