package io.ridgeline.engine.calibration;

import java.util.Locale;

/**
 * The model outputs that carry a prediction interval, and the case metrics whose residuals estimate it. A residual is
 * the log of predicted over measured <em>time</em>: for a rate metric (tokens/s, TFLOP/s) the ratio is inverted, so a
 * step time and a tokens/s of the same run share one residual.
 */
public enum IntervalOutput {
    /** Training step time; tokens/s is its inverse. Metrics iteration_time_s, tokens_per_s_per_gpu. */
    STEP_TIME(null, "training"),
    /** Time to first token. Metric ttft_ms. */
    TTFT(null, "inference"),
    /** Whole-request latency. Metric e2e_latency_s. */
    E2E_LATENCY(null, "inference"),
    /**
     * Time per output token. Metric tpot_ms; where a group has none, the whole-request latency's residuals stand in
     * (the dev latency rows generate 20-200 tokens after a 128-200 token prompt, so decode steps dominate them).
     */
    TPOT(E2E_LATENCY, "inference"),
    /** Generated tokens/s per GPU of a serving replica. Metric output_tokens_per_s_per_gpu. */
    OUTPUT_THROUGHPUT(null, "inference"),
    /** Achieved GEMM throughput (not an eval output; its residuals are reported). Metric tflops. */
    GEMM(null, "gemm"),
    /**
     * Every inference output pooled: the phase-level group an inference output falls back to when its own groups
     * have too few sources. No metric measures it.
     */
    INFERENCE(null, "inference");

    private final IntervalOutput fallback;
    private final String phase;
    private final String id = name().toLowerCase(Locale.ROOT);

    IntervalOutput(IntervalOutput fallback, String phase) {
        this.fallback = fallback;
        this.phase = phase;
    }

    /** The case phase whose rows measure this output: training, inference or gemm. */
    public String phase() {
        return phase;
    }

    /**
     * The phase-level pool this output falls back to last: {@link #INFERENCE} for the inference outputs; null where
     * the output is its phase's only one (step time, GEMM) or is the pool itself.
     */
    public IntervalOutput pooled() {
        return phase.equals("inference") && this != INFERENCE ? INFERENCE : null;
    }

    public String id() {
        return id;
    }

    /** The output whose residuals stand in when this one has too few; null when none does. */
    public IntervalOutput fallback() {
        return fallback;
    }

    /** The output a case metric measures, or null (memory rows: see {@link IntervalModel}). */
    public static IntervalOutput ofMetric(String metric) {
        return switch (metric) {
            case "iteration_time_s", "tokens_per_s_per_gpu" -> STEP_TIME;
            case "ttft_ms" -> TTFT;
            case "tpot_ms" -> TPOT;
            case "e2e_latency_s" -> E2E_LATENCY;
            case "output_tokens_per_s_per_gpu" -> OUTPUT_THROUGHPUT;
            case "tflops" -> GEMM;
            default -> null;
        };
    }

    /** True for metrics that are rates (higher = faster): their time ratio is measured / predicted. */
    public static boolean isRate(String metric) {
        return metric.startsWith("tokens_per_s") || metric.startsWith("output_tokens_per_s") || metric.equals("tflops");
    }

    public static IntervalOutput parse(String id) {
        for (IntervalOutput o : values()) {
            if (o.id.equals(id)) {
                return o;
            }
        }
        return null;
    }
}
