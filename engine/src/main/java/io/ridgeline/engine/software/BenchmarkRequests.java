package io.ridgeline.engine.software;

import java.util.ArrayList;
import java.util.List;

/**
 * The number of requests a runtime's published throughput benchmark ran per (input, output) length: trtllm-bench
 * throughput queues a finite synthetic dataset at once and reports total output tokens over the whole run's time
 * (perf-overview.md, "Preparing a Dataset": {@code $num_requests} per ISL/OSL). A run of N requests at concurrency C
 * is N / C waves, the last one part-full, not the steady state of an endless stream. Empty: no finite dataset stated.
 *
 * @param entries one per documented length pair
 */
public record BenchmarkRequests(List<Entry> entries) {
    /** No finite dataset: the benchmark's throughput is the steady state. */
    public static final BenchmarkRequests NONE = new BenchmarkRequests(List.of());

    /** {@code requests} requests of {@code inputTokens} in and {@code outputTokens} out. */
    public record Entry(int inputTokens, int outputTokens, int requests) {
    }

    public BenchmarkRequests {
        entries = List.copyOf(entries);
    }

    /** Requests the benchmark ran at these lengths; 0 when the document states none. Allocation-free. */
    public int requests(int inputTokens, int outputTokens) {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.inputTokens() == inputTokens && e.outputTokens() == outputTokens) {
                return e.requests();
            }
        }
        return 0;
    }

    /**
     * Reads {@code "128/128:30000, 128/2048:3000"} (input/output:requests, comma-separated; empty = none).
     *
     * @return null when the text is not in that form
     */
    static BenchmarkRequests parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return NONE;
        }
        List<Entry> out = new ArrayList<>();
        for (String part : t.split(",")) {
            String[] lengthsAndCount = part.trim().split(":");
            if (lengthsAndCount.length != 2) {
                return null;
            }
            String[] lengths = lengthsAndCount[0].trim().split("/");
            if (lengths.length != 2) {
                return null;
            }
            try {
                int in = Integer.parseInt(lengths[0].trim());
                int o = Integer.parseInt(lengths[1].trim());
                int n = Integer.parseInt(lengthsAndCount[1].trim());
                if (in < 1 || o < 1 || n < 1) {
                    return null;
                }
                out.add(new Entry(in, o, n));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return new BenchmarkRequests(out);
    }
}
