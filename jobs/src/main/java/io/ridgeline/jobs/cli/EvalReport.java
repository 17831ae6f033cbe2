package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ridgeline.engine.calibration.IntervalOutput;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sweep.PointRows;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How {@code eval} prints one result row: a breakdown table per phase, or the row itself as JSON (the points table's
 * columns, so a point read by eval and by a sweep compare key for key).
 */
final class EvalReport {
    private static final double GIB = 1024.0 * 1024 * 1024;

    private EvalReport() {
    }

    /** The row's columns, then the intervals of its main outputs when the model has them (calibration.intervals()). */
    static String json(ResultRow row, CalibrationOption calibration) {
        Map<String, Object> root = new LinkedHashMap<>(PointRows.toMap(row));
        String family = row.chip().family().name();
        if (row.workload().inference()) {
            calibration.putInferenceIntervals(root, stack(row), family, row.metric(Metric.TTFT_S), row.metric(Metric.TPOT_S),
                    row.metric(Metric.E2E_LATENCY_S), row.metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU));
        } else {
            calibration.putTrainingIntervals(root, stack(row), family, row.metric(Metric.STEP_TIME_S),
                    row.metric(Metric.TOKENS_PER_S));
        }
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(ResultRow row, CalibrationOption calibration) {
        String body = row.workload().inference() ? inference(row, calibration) : training(row, calibration);
        return body + EvalAnalysis.energy(row) + EvalAnalysis.sensitivity(row);
    }

    private static String training(ResultRow r, CalibrationOption cal) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s on %d x %s (%d per domain, scale-out %s %.0f Gb/s per GPU), seq %d, "
                        + "software %s%n", r.model().name(), r.gpuCount(), r.chip().id(),
                r.count(ResultRow.Count.SCALE_UP_DOMAIN), r.text(ResultRow.Text.SCALE_OUT),
                r.number(ResultRow.Number.SCALE_OUT_GBIT_S), r.workload().seqLen(), r.text(ResultRow.Text.SOFTWARE)));
        sb.append("plan ").append(r.plan()).append('\n');
        infeasible(sb, r);
        double step = r.metric(Metric.STEP_TIME_S);
        if (Double.isNaN(step)) {
            sb.append("(no times: a plan that does not fit is not timed, as in sweep rows)\n");
            memory(sb, r);
            return sb.toString();
        }
        sb.append(String.format(Locale.ROOT, "%n%-28s %12s %8s%n", "time per step", "seconds", "share"));
        row(sb, "compute (GEMM, attention)", r.metric(Metric.COMPUTE_S), step);
        row(sb, "memory-bound kernels", r.metric(Metric.MEMORY_BOUND_S) - r.metric(Metric.OPTIMIZER_S), step);
        row(sb, "tensor/sequence parallel", r.metric(Metric.TP_COMM_S), step);
        row(sb, "context parallel", r.metric(Metric.CP_COMM_S), step);
        row(sb, "expert parallel", r.metric(Metric.EP_COMM_S), step);
        row(sb, "pipeline p2p", r.metric(Metric.PP_COMM_S), step);
        row(sb, "pipeline bubble", r.metric(Metric.BUBBLE_S), step);
        row(sb, "data parallel (exposed)", r.metric(Metric.DP_COMM_S), step);
        row(sb, "optimizer", r.metric(Metric.OPTIMIZER_S), step);
        row(sb, "host launch overhead", r.metric(Metric.OVERHEAD_S), step);
        row(sb, "step", step, step);
        String family = r.chip().family().name();
        String stepInterval = cal.besideTime(IntervalOutput.STEP_TIME, stack(r), family, step, 1, "%.5f");
        if (!stepInterval.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%-28s%s%n", "", stepInterval));
        }
        sb.append(String.format(Locale.ROOT, "%ntokens/s %.4g%s   MFU %.1f%%   HFU %.1f%%   bottleneck %s%n",
                r.metric(Metric.TOKENS_PER_S), cal.besideRate(IntervalOutput.STEP_TIME, stack(r), family,
                        r.metric(Metric.TOKENS_PER_S), "%.4g"), r.metric(Metric.MFU_FRACTION) * 100,
                r.metric(Metric.HFU_FRACTION) * 100, r.text(ResultRow.Text.BOTTLENECK)));
        sb.append(String.format(Locale.ROOT, "energy %.4g J per step, average power %.4g W%n",
                r.metric(Metric.ENERGY_PER_STEP_J), r.metric(Metric.CLUSTER_POWER_W)));
        memory(sb, r);
        return sb.toString();
    }

    private static void memory(StringBuilder sb, ResultRow r) {
        sb.append(String.format(Locale.ROOT, "%n%-28s %12s%n", "memory per device", "GiB"));
        memory(sb, "weights", r.metric(Metric.WEIGHT_BYTES));
        memory(sb, "gradients", r.metric(Metric.GRADIENT_BYTES));
        memory(sb, "optimizer state", r.metric(Metric.OPTIMIZER_BYTES));
        memory(sb, "activations", r.metric(Metric.ACTIVATION_BYTES));
        memory(sb, "reserve", r.metric(Metric.RESERVE_BYTES));
        sb.append(String.format(Locale.ROOT, "%-28s %12.2f of %.2f%n", "total", r.metric(Metric.HBM_BYTES) / GIB,
                r.metric(Metric.HBM_CAPACITY_BYTES) / GIB));
    }

    private static String inference(ResultRow r, CalibrationOption cal) {
        StringBuilder sb = new StringBuilder();
        SweepSpec.Workload w = r.workload();
        String load = w.globalBatch() > 0 ? "batch " + w.globalBatch() : w.concurrency() > 0 ? "concurrency "
                + w.concurrency() : w.requestsPerSecond() > 0 ? "requests/s " + w.requestsPerSecond() : "no cap";
        sb.append(String.format(Locale.ROOT, "%s inference on %d x %s, tp %d ep %d pp %d dp %d, %s %s%s, %d in / %d "
                        + "out, software %s%n", r.model().name(), r.gpuCount(), r.chip().id(),
                r.count(ResultRow.Count.TP), r.count(ResultRow.Count.EP), r.count(ResultRow.Count.PP),
                r.count(ResultRow.Count.DP), w.servingMode(), load, w.disaggregated() ? ", disaggregated "
                        + w.disaggregation() + " (prefill:decode replicas)" : "", w.inputTokens(), w.outputTokens(),
                r.text(ResultRow.Text.SOFTWARE) == null ? "none" : r.text(ResultRow.Text.SOFTWARE)));
        sb.append("plan ").append(r.plan()).append('\n');
        infeasible(sb, r);
        if (!Double.isNaN(r.metric(Metric.TTFT_S))) {
            times(sb, r, cal);
        }
        sb.append(String.format(Locale.ROOT, "memory per GPU: weights %.2f GiB, KV cache %.2f GiB, activations %.2f "
                        + "GiB, reserve %.2f GiB of %.2f GiB%n", r.metric(Metric.WEIGHT_BYTES) / GIB,
                r.metric(Metric.KV_CACHE_BYTES) / GIB, r.metric(Metric.ACTIVATION_BYTES) / GIB,
                r.metric(Metric.RESERVE_BYTES) / GIB, r.metric(Metric.HBM_CAPACITY_BYTES) / GIB));
        return sb.toString();
    }

    private static void times(StringBuilder sb, ResultRow r, CalibrationOption cal) {
        String f = r.chip().family().name();
        double ttft = r.metric(Metric.TTFT_S);
        double tpot = r.metric(Metric.TPOT_S);
        double e2e = r.metric(Metric.E2E_LATENCY_S);
        double rate = r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_GPU);
        sb.append(String.format(Locale.ROOT, "TTFT %.2f ms%s   TPOT %.3f ms%s   end-to-end %.4f s%s%n", ttft * 1e3,
                cal.besideTime(IntervalOutput.TTFT, stack(r), f, ttft, 1e3, "%.2f"), tpot * 1e3,
                cal.besideTime(IntervalOutput.TPOT, stack(r), f, tpot, 1e3, "%.3f"), e2e,
                cal.besideTime(IntervalOutput.E2E_LATENCY, stack(r), f, e2e, 1, "%.4f")));
        double maxBatch = r.metric(Metric.MAX_BATCH);
        sb.append(String.format(Locale.ROOT, "output tokens/s per GPU %.4g%s   max batch (KV cache) %s   bottleneck %s%n",
                rate, cal.besideRate(IntervalOutput.OUTPUT_THROUGHPUT, stack(r), f, rate, "%.4g"), Double.isNaN(maxBatch)
                        ? "n/a" : Integer.toString((int) maxBatch), r.text(ResultRow.Text.BOTTLENECK)));
        if (!r.workload().disaggregated()) { // energy is not modelled for a prefill:decode split
            sb.append(String.format(Locale.ROOT, "energy %.3g J per output token%n",
                    r.metric(Metric.ENERGY_PER_TOKEN_J)));
        }
        sb.append(String.format(Locale.ROOT, "per user %.4g output tokens/s   requests in flight %.1f per %s   "
                        + "requests/s %.4g (cluster)%n", r.metric(Metric.OUTPUT_TOKENS_PER_S_PER_USER),
                r.metric(Metric.IN_FLIGHT_REQUESTS), r.workload().disaggregated() ? "decode replica" : "replica",
                r.metric(Metric.REQUESTS_PER_S)));
        if (r.workload().disaggregated()) {
            sb.append(String.format(Locale.ROOT, "prefill %d GPUs : decode %d GPUs   KV transfer %.3f ms per "
                            + "request%n", (int) r.metric(Metric.PREFILL_GPUS), (int) r.metric(Metric.DECODE_GPUS),
                    r.metric(Metric.KV_TRANSFER_S) * 1e3));
        }
    }

    private static void infeasible(StringBuilder sb, ResultRow r) {
        if (r.status() != PointStatus.OK) {
            sb.append("INFEASIBLE (").append(r.status().id()).append("): ").append(r.detail()).append('\n');
        }
    }

    private static void row(StringBuilder sb, String label, double seconds, double step) {
        sb.append(String.format(Locale.ROOT, "%-28s %12.5f %7.1f%%%n", label, seconds, seconds / step * 100));
    }

    private static void memory(StringBuilder sb, String label, double bytes) {
        sb.append(String.format(Locale.ROOT, "%-28s %12.2f%n", label, bytes / GIB));
    }

    /** The row's software stack: its intervals are those of the stack's group when it has one. */
    private static String stack(ResultRow r) {
        String s = r.text(ResultRow.Text.SOFTWARE);
        return s == null ? "" : s;
    }
}
