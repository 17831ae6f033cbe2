package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;

import java.util.List;

/** Maps the validation metrics of inference cases (validation/README.md) to predictions, in the cases' units. */
public final class InferenceMetrics {
    /** The metric ids of inference cases, in the units of the case files. */
    public static final List<String> METRICS = List.of("e2e_latency_s", "ttft_ms", "tpot_ms",
            "output_tokens_per_s_per_gpu");

    private InferenceMetrics() {
    }

    public static boolean supports(String metric) {
        return METRICS.contains(metric);
    }

    /**
     * The predicted value of {@code metric} in its case-file unit: e2e_latency_s (s), ttft_ms (ms), tpot_ms (ms),
     * output_tokens_per_s_per_gpu (static batch, tokens/s per GPU of the replica). NaN for infeasible results.
     */
    public static double predict(String metric, InferenceResult r) {
        return switch (metric) {
            case "e2e_latency_s" -> r.e2eLatencySeconds();
            case "ttft_ms" -> r.ttftSeconds() * 1e3;
            case "tpot_ms" -> r.tpotSeconds() * 1e3;
            case "output_tokens_per_s_per_gpu" -> r.outputTokensPerSecondPerGpu();
            default -> throw new InvalidInputException(InputError.of("inference case", "metric",
                    Names.expectedOneOf(metric, METRICS), "'" + metric + "'"));
        };
    }
}
