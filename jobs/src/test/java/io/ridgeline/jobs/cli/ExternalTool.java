package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A program a test needs from the operating system (Debian's chromium, LibreOffice). Missing on a developer's machine:
 * the test is skipped with a message saying how to install it. Missing where its environment variable is 1 (.ci/run
 * sets them after installing the packages): the test fails, so CI can never pass by skipping.
 */
record ExternalTool(String what, List<Path> binaries, String debianPackages, String requireVariable) {
    static final ExternalTool CHROMIUM = new ExternalTool("headless Chromium and its WebDriver",
            List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromedriver")), "chromium chromium-driver",
            "RIDGELINE_REQUIRE_BROWSER");
    /** scripts/check-workbook: soffice recalculates, zip and unzip edit the workbook, python3 compares. */
    static final ExternalTool LIBREOFFICE = new ExternalTool("LibreOffice Calc and the tools of scripts/check-workbook",
            List.of(Path.of("/usr/bin/soffice"), Path.of("/usr/bin/zip"), Path.of("/usr/bin/unzip"),
                    Path.of("/usr/bin/python3")), "libreoffice-calc-nogui zip unzip python3",
            "RIDGELINE_REQUIRE_LIBREOFFICE");

    /** Skips or fails the calling test when a binary is missing (see the class comment). */
    void require() {
        for (Path b : binaries) {
            if (!Files.isExecutable(b)) {
                String msg = what + " not found: " + b + " is missing (apt-get install " + debianPackages + ")";
                if ("1".equals(System.getenv(requireVariable))) {
                    Assertions.fail(msg + "; " + requireVariable + "=1 makes this a failure");
                }
                Assumptions.abort("skipped: " + msg + "; set " + requireVariable + "=1 to make this a failure");
            }
        }
    }
}
