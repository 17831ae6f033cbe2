package io.ridgeline.engine.technology;

/**
 * One DRAM technology, per HBM stack or per GDDR/LPDDR/DDR device (catalog/dram_types.csv). SI units.
 *
 * @param bytesPerSecondPerStack bus width x pin rate / 8 at the catalogue pin rate
 * @param phyMm2                 PHY + controller area on the compute die per stack
 * @param shorelineMm            die-edge length per stack
 * @param onPackage              true when the stacks sit on the interposer/substrate (count against package area)
 * @param footprintMm2           package area of one stack (0 when off-package)
 */
public record DramType(String id, String kind, int busBits, double pinGbitPerSecond, double bytesPerStack,
                       double joulesPerBit, double phyMm2, double shorelineMm, boolean onPackage, double footprintMm2,
                       double usdPerGib, String source) {
    public DramType {
        if (busBits < 1 || !(pinGbitPerSecond > 0) || !(bytesPerStack > 0) || !(joulesPerBit > 0) || phyMm2 < 0
                || !(shorelineMm > 0) || footprintMm2 < 0 || usdPerGib < 0) {
            throw new IllegalArgumentException("invalid DRAM type " + id);
        }
    }

    /** Bandwidth of one stack at a pin rate: bus bits x Gb/s per pin / 8 (JEDEC definition). */
    public double bytesPerSecondPerStack(double pinGbitPerSecond) {
        return busBits * pinGbitPerSecond * 1e9 / 8;
    }

    public double bytesPerSecondPerStack() {
        return bytesPerSecondPerStack(pinGbitPerSecond);
    }
}
