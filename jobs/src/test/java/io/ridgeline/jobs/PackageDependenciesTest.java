package io.ridgeline.jobs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jobs module stands on the engine's front door: the evaluation facade and its result rows, the spec readers,
 * skylines, validation, calibration (fits, profiles, intervals), and the catalogues reports draw from (hardware,
 * models, GEMM roofline, TCO and fabric prices). It never reaches into the model (training, inference, parallelism,
 * network, technology, energy, software): a front end that needs more goes through {@code engine.evaluation}. And
 * its own packages form no cycle.
 */
class PackageDependenciesTest {
    private static final Path ROOT = Path.of("src/main/java/io/ridgeline/jobs");
    private static final Set<String> ENGINE_ALLOWED = Set.of("evaluation", "sweep", "spec", "pareto", "validation",
            "calibration", "hardware", "workload", "ops", "cost");

    @Test
    void jobsUsesTheFacadeTheSpecReadersAndTheResultRowsOnly() throws IOException {
        Map<String, Set<String>> engine = references(Pattern.compile("\\bio\\.ridgeline\\.engine\\.([a-z]+)\\.[A-Za-z]"));
        Map<String, Set<String>> outside = new TreeMap<>();
        for (Map.Entry<String, Set<String>> e : engine.entrySet()) {
            for (String p : e.getValue()) {
                if (!ENGINE_ALLOWED.contains(p)) {
                    outside.computeIfAbsent(e.getKey(), k -> new TreeSet<>()).add(p);
                }
            }
        }
        assertEquals(Map.of(), outside, "jobs files reaching into engine internals");
        assertTrue(engine.size() > 30, "read the jobs sources: " + engine.size());
    }

    @Test
    void jobsPackagesHaveNoCycle() throws IOException {
        Map<String, Set<String>> files = references(Pattern.compile("\\bio\\.ridgeline\\.jobs\\.([a-z]+)\\.[A-Za-z]"));
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Map.Entry<String, Set<String>> e : files.entrySet()) {
            int slash = e.getKey().indexOf('/');
            String pkg = slash < 0 ? "(root)" : e.getKey().substring(0, slash);
            Set<String> deps = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
            for (String d : e.getValue()) {
                if (!d.equals(pkg)) {
                    deps.add(d);
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        for (String a : graph.keySet()) {
            for (String b : graph.get(a)) {
                if (reaches(graph, b, a, new TreeSet<>())) {
                    cycles.add(a + " -> " + b);
                }
            }
        }
        assertEquals(List.of(), cycles, "package dependencies that close a cycle; graph: " + graph);
    }

    private static boolean reaches(Map<String, Set<String>> g, String from, String to, Set<String> seen) {
        if (from.equals(to)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String n : g.getOrDefault(from, Set.of())) {
            if (reaches(g, n, to, seen)) {
                return true;
            }
        }
        return false;
    }

    /** "package/File.java" -> the packages its code (comments stripped) names through {@code reference}. */
    private static Map<String, Set<String>> references(Pattern reference) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                Set<String> refs = new TreeSet<>();
                Matcher m = reference.matcher(code);
                while (m.find()) {
                    refs.add(m.group(1));
                }
                out.put(ROOT.relativize(f).toString(), refs);
            }
        }
        return out;
    }
}
