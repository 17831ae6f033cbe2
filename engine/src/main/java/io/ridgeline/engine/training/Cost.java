package io.ridgeline.engine.training;

/**
 * Seconds on the critical path of one device, split by cause. A small value type with {@code plus}/{@code times}
 * so per-layer costs compose into per-stage and per-step costs without hand-unrolled fields.
 *
 * @param gemmSeconds      tensor-core GEMMs (and fused attention)
 * @param memorySeconds    memory-bound kernels (norms, activations, softmax, dropout, residuals, losses)
 * @param tpSeconds        exposed tensor-parallel (and sequence-parallel) collectives
 * @param cpSeconds        exposed context-parallel K/V exchange
 * @param epSeconds        exposed expert-parallel all-to-all
 * @param ppSeconds        pipeline point-to-point transfers on the critical path
 * @param tpScaleOut       true when any TP/CP/EP collective above crosses the scale-out network
 * @param kernels          kernels the host launches for this work (see {@link HostOverhead})
 * @param stallKernels     kernels the host launches while the GPU waits for it (after a device-to-host sync)
 */
public record Cost(double gemmSeconds, double memorySeconds, double tpSeconds, double cpSeconds, double epSeconds,
                   double ppSeconds, boolean tpScaleOut, double kernels, double stallKernels) {

    public static final Cost ZERO = new Cost(0, 0, 0, 0, 0, 0, false, 0, 0);

    public Cost(double gemmSeconds, double memorySeconds, double tpSeconds, double cpSeconds, double epSeconds,
                double ppSeconds, boolean tpScaleOut) {
        this(gemmSeconds, memorySeconds, tpSeconds, cpSeconds, epSeconds, ppSeconds, tpScaleOut, 0, 0);
    }

    public Cost(double gemmSeconds, double memorySeconds, double tpSeconds, double cpSeconds, double epSeconds,
                double ppSeconds, boolean tpScaleOut, double kernels) {
        this(gemmSeconds, memorySeconds, tpSeconds, cpSeconds, epSeconds, ppSeconds, tpScaleOut, kernels, 0);
    }

    public double totalSeconds() {
        return gemmSeconds + memorySeconds + tpSeconds + cpSeconds + epSeconds + ppSeconds;
    }

    public Cost plus(Cost o) {
        return new Cost(gemmSeconds + o.gemmSeconds, memorySeconds + o.memorySeconds, tpSeconds + o.tpSeconds,
                cpSeconds + o.cpSeconds, epSeconds + o.epSeconds, ppSeconds + o.ppSeconds,
                tpScaleOut || o.tpScaleOut, kernels + o.kernels, stallKernels + o.stallKernels);
    }

    public Cost times(double f) {
        return new Cost(gemmSeconds * f, memorySeconds * f, tpSeconds * f, cpSeconds * f, epSeconds * f,
                ppSeconds * f, tpScaleOut, kernels * f, stallKernels * f);
    }
}
