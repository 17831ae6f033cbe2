package io.ridgeline.engine.calibration;

import java.util.List;

/**
 * Which cases a fit uses, beyond the files: each list empty = any. A framework without a version ("megatron-bridge")
 * matches every version of it; with one ("nemo@24.07") only that version. Precisions match the case's stated
 * {@code precision} cell. Nothing selects by case id or source.
 */
public record CaseSelection(List<String> gpus, List<String> frameworks, List<String> phases, List<String> metrics,
                            List<String> precisions) {
    public static final CaseSelection ALL = new CaseSelection(List.of(), List.of(), List.of(), List.of());

    public CaseSelection {
        gpus = List.copyOf(gpus);
        frameworks = List.copyOf(frameworks);
        phases = List.copyOf(phases);
        metrics = List.copyOf(metrics);
        precisions = List.copyOf(precisions);
    }

    /** Any precision. */
    public CaseSelection(List<String> gpus, List<String> frameworks, List<String> phases, List<String> metrics) {
        this(gpus, frameworks, phases, metrics, List.of());
    }

    public boolean matches(MeasuredCase c) {
        return (gpus.isEmpty() || gpus.contains(c.gpu())) && (phases.isEmpty() || phases.contains(c.phase()))
                && (metrics.isEmpty() || metrics.contains(c.metric())) && frameworkMatches(c.framework())
                && (precisions.isEmpty() || precisions.contains(c.precision()));
    }

    private boolean frameworkMatches(String framework) {
        if (frameworks.isEmpty()) {
            return true;
        }
        int at = framework.indexOf('@');
        String name = at < 0 ? framework : framework.substring(0, at);
        for (String f : frameworks) {
            if (f.equals(framework) || (f.indexOf('@') < 0 && f.equals(name))) {
                return true;
            }
        }
        return false;
    }

    /** "gpu=a100-80g phase=training" or "all cases". */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        append(sb, "gpu", gpus);
        append(sb, "framework", frameworks);
        append(sb, "phase", phases);
        append(sb, "metric", metrics);
        append(sb, "precision", precisions);
        return sb.length() == 0 ? "all cases" : sb.toString();
    }

    private static void append(StringBuilder sb, String key, List<String> values) {
        if (!values.isEmpty()) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(key).append('=').append(String.join(",", values));
        }
    }
}
