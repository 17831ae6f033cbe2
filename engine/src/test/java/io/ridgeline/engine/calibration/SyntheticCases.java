package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.validation.Validator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/** Case files whose "measured" column is the engine's own prediction with known constants, times (1 + noise). */
final class SyntheticCases {
    private SyntheticCases() {
    }

    static Path validationDir() {
        return Path.of(System.getProperty("ridgeline.validation.dir", "../validation"));
    }

    /**
     * Writes the rows of {@code source} that {@code keep} accepts (at most {@code limit}), with measured = the
     * prediction on {@code truth} x (1 + N(0, noise)), seeded.
     */
    static Path write(Path dir, String name, Path source, Predicate<CsvTable.Row> keep, int limit, Catalogs truth,
                      double noise, long seed) throws IOException {
        CsvTable t = CsvTable.read(source);
        Validator v = new Validator(truth.hardware(), truth.stacks());
        Random random = new Random(seed);
        StringBuilder sb = new StringBuilder(String.join(",", t.header())).append('\n');
        int n = 0;
        for (CsvTable.Row r : t.rows()) {
            if (n >= limit || !keep.test(r)) {
                continue;
            }
            double predicted = v.score(source.getFileName().toString(), r).predicted();
            if (!(predicted > 0)) {
                continue;
            }
            double measured = predicted * (1 + noise * random.nextGaussian());
            List<String> header = t.header();
            for (int i = 0; i < header.size(); i++) {
                String cell = header.get(i).equals("measured") ? Double.toString(measured) : r.raw(header.get(i));
                sb.append(i == 0 ? "" : ",").append(quote(cell));
            }
            sb.append('\n');
            n++;
        }
        Path out = dir.resolve(name);
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        return out;
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
