package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.calibration.CaseScorer;
import io.ridgeline.engine.calibration.CatalogWriter;
import io.ridgeline.engine.calibration.Catalogs;
import io.ridgeline.engine.calibration.FitRecipe;
import io.ridgeline.engine.calibration.FitResult;
import io.ridgeline.engine.calibration.RecipeRun;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code ridgeline calibrate --recipe FITS.yaml [--write]}: replays the shipped fits (scripts/fit-catalog). */
final class RecipeCommand {
    private RecipeCommand() {
    }

    static int run(Path file, boolean write, boolean json, PrintStream out) throws IOException {
        FitRecipe recipe;
        try {
            recipe = FitRecipe.parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable fit recipe",
                    e.getMessage()));
        }
        Set<String> files = new LinkedHashSet<>();
        recipe.entries().forEach(e -> files.addAll(e.files()));
        Path root = Path.of("").toAbsolutePath();
        List<Path> paths = new ArrayList<>();
        for (String f : files) {
            paths.add(root.resolve(f));
        }
        CaseScorer scorer = CaseScorer.read(paths);
        RecipeRun.Outcome o = new RecipeRun(recipe, scorer).run(null);
        Map<String, String> texts = new LinkedHashMap<>();
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root2 = mapper.createObjectNode();
        ArrayNode fits = root2.putArray("fits");
        for (int e = 0; e < recipe.entries().size(); e++) {
            FitRecipe.Entry entry = recipe.entries().get(e);
            FitResult f = o.fits().get(e);
            ObjectNode n = fits.addObject();
            n.put("id", entry.id());
            n.put("cases", f.cases());
            n.put("seconds", f.seconds());
            ArrayNode ps = n.putArray("parameters");
            if (!json) {
                out.printf(Locale.ROOT, "fit %s: %d cases of %s (%s), %d iterations, %.1f s%s%n", entry.id(), f.cases(),
                        String.join(" ", entry.files()), entry.selection().describe(), f.iterations(), f.seconds(),
                        f.note().isEmpty() ? "" : "; " + f.note());
            }
            for (FitRecipe.RecipeParameter p : entry.parameters()) {
                String text = RecipeRun.text(o.values().get(p.path()), p.digits());
                double shipped = Catalogs.bundled().value(p.path());
                texts.put(p.path(), text);
                p.tied().forEach(t -> texts.put(t, text));
                ObjectNode pn = ps.addObject();
                pn.put("name", p.path());
                pn.put("start", p.start());
                pn.put("value", o.values().get(p.path()));
                pn.put("shipped", shipped);
                if (!json) {
                    out.printf(Locale.ROOT, "  %-55s = %-8s (start %s; shipped %s)%n", p.path(), text,
                            RecipeRun.text(p.start(), 6), RecipeRun.text(shipped, 6));
                    if (!p.tied().isEmpty()) {
                        out.printf(Locale.ROOT, "    also shipped at: %s%n", String.join(", ", p.tied()));
                    }
                    out.printf(Locale.ROOT, "    provenance: fitted by %s fit %s (scripts/fit-catalog), "
                                    + "Levenberg-Marquardt on relative error over %d ok rows of %s (%s), from %s%n",
                            file.getFileName(), entry.id(), f.cases(), String.join(" ", entry.files()),
                            entry.selection().describe(), RecipeRun.text(p.start(), 6));
                }
            }
        }
        if (json) {
            out.println(mapper.writeValueAsString(root2));
        }
        if (write) {
            List<String> changed = CatalogWriter.write(root, texts);
            System.err.println(changed.isEmpty() ? "catalogue already holds these values"
                    : "wrote " + String.join(", ", changed));
        }
        return 0;
    }
}
