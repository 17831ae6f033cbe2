package io.ridgeline.engine.hardware;

/**
 * Size-dependent efficiency of a scale-up collective, from a measured nccl-tests all-reduce curve on one node (8 GPUs,
 * or the 4 of a GB200 VM).
 *
 * <p>Efficiency at message size n is busbw(n) / reference link bandwidth, interpolated linearly in log2(n). Below the
 * smallest measurement the time is the latency floor; the per-step latency is that floor divided by the latency steps
 * of an all-reduce over the measured ranks ({@link #latencySteps}). For another chip or group size the time is max(steps x latency, bytes-on-wire /
 * (efficiency x bandwidth)): it reproduces the measured curve exactly at the reference point and scales with bandwidth.
 */
public final class CollectiveCurve {
    private final String family;
    private final int referenceRanks;
    private final double[] log2Bytes;
    private final double[] efficiency;
    private final double stepLatencySeconds;

    /**
     * @param bytes       message sizes, ascending
     * @param busbw       measured bus bandwidth at each size, bytes/s
     * @param referenceBytesPerSecond per-direction link bandwidth of the chip that was measured
     * @param referenceRanks GPUs the measurement ran on
     */
    public CollectiveCurve(String family, double[] bytes, double[] busbw, double referenceBytesPerSecond,
                           int referenceRanks) {
        if (bytes.length < 2 || bytes.length != busbw.length) {
            throw new IllegalArgumentException("a curve needs at least two points: " + family);
        }
        if (referenceRanks < 2) {
            throw new IllegalArgumentException("a curve is measured on at least two ranks: " + family);
        }
        this.family = family;
        this.referenceRanks = referenceRanks;
        this.log2Bytes = new double[bytes.length];
        this.efficiency = new double[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0 && !(bytes[i] > bytes[i - 1])) {
                throw new IllegalArgumentException("curve sizes must ascend: " + family);
            }
            log2Bytes[i] = Math.log(bytes[i]) / Math.log(2);
            efficiency[i] = busbw[i] / referenceBytesPerSecond;
        }
        // nccl-tests busbw = algbw x 2 (p - 1) / p: the smallest message's time is its size x that factor / busbw.
        double ringFactor = 2.0 * (referenceRanks - 1) / referenceRanks;
        double floorSeconds = bytes[0] * ringFactor / busbw[0];
        this.stepLatencySeconds = floorSeconds / latencySteps(referenceRanks);
    }

    public String family() {
        return family;
    }

    /** GPUs the curve was measured on. */
    public int referenceRanks() {
        return referenceRanks;
    }

    /** Latency of one ring step, from the small-message floor. */
    public double stepLatencySeconds() {
        return stepLatencySeconds;
    }

    /** Bus-bandwidth efficiency at a message size (fraction of link bandwidth; may exceed 1 with in-switch reduction). */
    public double efficiency(double bytes) {
        if (!(bytes > 0)) {
            return efficiency[0];
        }
        double x = Math.log(bytes) * 1.4426950408889634; // log2
        if (x <= log2Bytes[0]) {
            // Below the first point the curve is latency-bound: efficiency grows linearly with size.
            return efficiency[0] * Math.pow(2, x - log2Bytes[0]);
        }
        int last = log2Bytes.length - 1;
        if (x >= log2Bytes[last]) {
            return efficiency[last];
        }
        int i = 1;
        while (log2Bytes[i] < x) {
            i++;
        }
        double f = (x - log2Bytes[i - 1]) / (log2Bytes[i] - log2Bytes[i - 1]);
        return efficiency[i - 1] + f * (efficiency[i] - efficiency[i - 1]);
    }

    /** Steps of latency of an all-reduce over p ranks: the better of ring (2(p-1)) and double binary tree (2 log2 p). */
    public static double latencySteps(int p) {
        double ring = 2.0 * (p - 1);
        double tree = 2.0 * Math.ceil(Math.log(p) / Math.log(2) - 1e-9);
        return Math.min(ring, tree);
    }

    /** Large-message efficiency. */
    public double plateauEfficiency() {
        return efficiency[efficiency.length - 1];
    }
}
