package io.ridgeline.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
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
 * The engine's packages form a layered graph: no package depends, directly or through others, on a package that
 * depends on it. Dependencies are read from the sources (imports and fully qualified names in code, comments
 * stripped), so a cycle shows here before anyone runs jdeps.
 */
public class PackageDependenciesTest {
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.ridgeline\\.engine\\.([a-z]+)\\.[A-Za-z]");

    @Test
    void engineHasNoPackageCycle() throws IOException {
        Map<String, Set<String>> graph = graph(Path.of("src/main/java/io/ridgeline/engine"), REFERENCE);
        assertTrue(graph.size() >= 15, "read the engine's packages: " + graph.keySet());
        assertEquals(List.of(), cycles(graph), "package cycles (each: packages that reach each other); graph: "
                + graph);
    }

    @Test
    void findsTheCycleThisTestReplaced() {
        // hardware -> network -> technology -> hardware, as it was before SystemSpec moved to network.
        Map<String, Set<String>> g = new TreeMap<>(Map.of("hardware", Set.of("network", "spec"),
                "network", Set.of("hardware", "technology"), "technology", Set.of("hardware"), "spec", Set.of()));
        assertEquals(List.of(List.of("hardware", "network", "technology")), cycles(g));
    }

    /** Package -> packages its main sources reference (same root only; the package itself left out). */
    public static Map<String, Set<String>> graph(Path root, Pattern reference) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = root.relativize(f.getParent()).toString().replace('/', '.');
                Set<String> deps = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = reference.matcher(stripComments(Files.readString(f)));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        deps.add(m.group(1));
                    }
                }
            }
        }
        return graph;
    }

    /** Java source without comments (Javadoc links are documentation, not dependencies). */
    static String stripComments(String java) {
        return java.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted; empty when acyclic. */
    public static List<List<String>> cycles(Map<String, Set<String>> graph) {
        List<List<String>> out = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        int[] counter = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, graph, index, low, stack, onStack, counter, out);
            }
        }
        return out;
    }

    private static void strongConnect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                      Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                      int[] counter, List<List<String>> out) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strongConnect(w, graph, index, low, stack, onStack, counter, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                out.add(component);
            }
        }
    }
}
