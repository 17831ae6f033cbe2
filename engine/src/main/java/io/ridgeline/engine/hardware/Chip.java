package io.ridgeline.engine.hardware;

import java.util.Arrays;

/**
 * One accelerator: datasheet peaks, the memory hierarchy and its calibration family. SI units throughout. Presets come
 * from catalog/chips.csv; derived chips from {@code technology.ChipBuilder}.
 *
 * @param peakFlopsPerSecond dense peak indexed by {@link Precision#ordinal()}; 0 where the chip lacks the format
 */
public record Chip(String id, String name, ChipFamily family, String memoryType, double memoryBytes,
                   double memoryBytesPerSecond, double[] peakFlopsPerSecond, int smCount, double clockHz,
                   double l2Bytes, double l2BytesPerSecond, double smemBytesPerSm, String scaleUpLink,
                   double scaleUpBytesPerSecond, int scaleUpDomain, double tdpWatts, double priceUsd, String source) {

    public Chip {
        if (peakFlopsPerSecond.length != Precision.values().length) {
            throw new IllegalArgumentException("peak table needs one entry per precision: " + id);
        }
        peakFlopsPerSecond = peakFlopsPerSecond.clone();
        if (!(memoryBytes > 0) || !(memoryBytesPerSecond > 0) || smCount < 1 || !(clockHz > 0) || !(l2Bytes > 0)
                || !(l2BytesPerSecond > 0) || !(scaleUpBytesPerSecond > 0) || scaleUpDomain < 1 || !(tdpWatts > 0)) {
            throw new IllegalArgumentException("chip quantities must be positive: " + id);
        }
    }

    /** Dense peak for a precision; formats the chip lacks fall back to the next wider one it has (as frameworks do). */
    public double peakFlopsPerSecond(Precision p) {
        for (int i = p.ordinal(); i >= 0; i--) {
            double v = peakFlopsPerSecond[i];
            if (v > 0) {
                return v;
            }
        }
        throw new IllegalStateException("chip " + id + " has no peak for " + p);
    }

    /** True when the chip runs this format natively on its tensor cores. */
    public boolean supports(Precision p) {
        return peakFlopsPerSecond[p.ordinal()] > 0;
    }

    /** True when the scale-up domain is NVLink (runtimes enable their own all-reduce kernels only there). */
    public boolean nvlinkScaleUp() {
        return scaleUpLink.startsWith("nvlink");
    }

    /** Sustained DRAM bandwidth (datasheet x STREAM fraction of the family). */
    public double effectiveMemoryBytesPerSecond() {
        return memoryBytesPerSecond * family.dramFraction();
    }

    /** A copy with a different memory system (DRAM sweeps). */
    public Chip withMemory(String type, double bytes, double bytesPerSecond) {
        return new Chip(id, name, family, type, bytes, bytesPerSecond, peakFlopsPerSecond, smCount, clockHz, l2Bytes,
                l2BytesPerSecond, smemBytesPerSm, scaleUpLink, scaleUpBytesPerSecond, scaleUpDomain, tdpWatts,
                priceUsd, source);
    }

    /** A copy in another calibration family (what-if: engine.sensitivity perturbs the launch cost). */
    public Chip withFamily(ChipFamily f) {
        return new Chip(id, name, f, memoryType, memoryBytes, memoryBytesPerSecond, peakFlopsPerSecond, smCount,
                clockHz, l2Bytes, l2BytesPerSecond, smemBytesPerSm, scaleUpLink, scaleUpBytesPerSecond, scaleUpDomain,
                tdpWatts, priceUsd, source);
    }

    /** A copy with every peak scaled (property tests, what-if sweeps). */
    public Chip withComputeScaled(double factor) {
        double[] p = peakFlopsPerSecond.clone();
        for (int i = 0; i < p.length; i++) {
            p[i] *= factor;
        }
        return new Chip(id, name, family, memoryType, memoryBytes, memoryBytesPerSecond, p, smCount, clockHz * factor,
                l2Bytes, l2BytesPerSecond, smemBytesPerSm, scaleUpLink, scaleUpBytesPerSecond, scaleUpDomain,
                tdpWatts, priceUsd, source);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Chip c && c.id.equals(id) && Arrays.equals(c.peakFlopsPerSecond, peakFlopsPerSecond)
                && c.memoryBytes == memoryBytes && c.memoryBytesPerSecond == memoryBytesPerSecond
                && c.scaleUpBytesPerSecond == scaleUpBytesPerSecond && c.family.equals(family)
                && c.memoryType.equals(memoryType) && c.tdpWatts == tdpWatts; // both set the energy coefficients
    }

    @Override
    public int hashCode() {
        return id.hashCode() * 31 + Arrays.hashCode(peakFlopsPerSecond);
    }

    @Override
    public String toString() {
        return "Chip[" + id + "]";
    }
}
