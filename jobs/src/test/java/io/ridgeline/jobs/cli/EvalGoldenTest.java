package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden {@code eval} outputs: {@code ridgeline eval --json} of fixed, fully specified points (the point's result
 * row, points-table columns), flattened to one {@code path=value} line per JSON field and compared with
 * {@code src/test/resources/golden/eval-NAME.txt}.
 * Regenerate after an intentional change with {@code scripts/regenerate-golden}.
 */
class EvalGoldenTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden");

    static Stream<Arguments> points() {
        return Stream.of(
                Arguments.of("training-gpt3-h100", new String[]{"--model", "gpt3-175b", "--chip", "h100-sxm",
                        "--gpu-count", "512", "--phase", "training", "--seq-len", "2048", "--global-batch", "2048",
                        "--tp", "4", "--pp", "8", "--vpp", "6", "--zero", "1", "--json"}),
                Arguments.of("training-memory-a100", new String[]{"--model", "gpt3-175b", "--chip", "a100-80g",
                        "--gpu-count", "64", "--phase", "training", "--seq-len", "2048", "--global-batch", "1536",
                        "--tp", "8", "--pp", "2", "--zero", "1", "--json"}),
                Arguments.of("inference-llama2-70b-h100", new String[]{"--phase", "inference", "--model",
                        "llama2-70b", "--chip", "h100-sxm", "--gpu-count", "4", "--tp", "4", "--batch", "64",
                        "--input-tokens", "128", "--output-tokens", "128", "--json"}),
                Arguments.of("inference-mixtral-h100", new String[]{"--phase", "inference", "--model",
                        "mixtral-8x7b", "--chip", "h100-sxm", "--gpu-count", "8", "--tp", "2", "--ep", "4", "--batch",
                        "16", "--input-tokens", "512", "--output-tokens", "128", "--json"}),
                Arguments.of("gemm-a100-fp16", new String[]{"--phase", "gemm", "-m", "8192", "-n", "8192", "-k",
                        "8192", "--chip", "a100-80g", "--precision", "fp16", "--json"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("points")
    void evalMatchesTheGoldenFile(String name, String[] args) throws IOException {
        List<String> actual = flatten(run(args));
        Path golden = GOLDEN.resolve("eval-" + name + ".txt");
        if (Boolean.getBoolean("ridgeline.golden.write")) {
            Files.createDirectories(GOLDEN);
            List<String> lines = new ArrayList<>();
            lines.add("# ridgeline eval " + String.join(" ", args) + " (EvalGoldenTest; scripts/regenerate-golden)");
            lines.addAll(actual);
            Files.write(golden, lines, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(Files.exists(golden), "no golden file " + golden + ": run scripts/regenerate-golden");
        List<String> expected = Files.readAllLines(golden, StandardCharsets.UTF_8);
        assertEquals(String.join("\n", expected.subList(1, expected.size())), String.join("\n", actual), name);
    }

    static String run(String... args) {
        CliRun r = CliRun.of(prepend("eval", args));
        assertTrue(r.code() == 0 || r.code() == 3, r.err() + r.out());
        return r.out();
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** {"a": {"b": 1}} becomes "a.b=1"; fields in output order. */
    static List<String> flatten(String json) throws IOException {
        List<String> out = new ArrayList<>();
        flatten("", new ObjectMapper().readTree(json), out);
        return out;
    }

    private static void flatten(String prefix, JsonNode n, List<String> out) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.add(prefix + "=" + (n.isTextual() ? n.textValue() : n.toString()));
        }
    }
}
