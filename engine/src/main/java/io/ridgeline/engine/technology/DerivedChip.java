package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.Chip;

/**
 * A chip derived from technology plus the numbers behind it, so a sweep can report why a design point is what it is.
 * SI units.
 *
 * @param chip                 the chip the engine evaluates like a preset
 * @param physicalUnits        compute units that fit in the compute area
 * @param enabledUnits         units enabled (the rest are spares for yield)
 * @param computeAreaMm2       die area left for compute units after uncore, L2, DRAM and link PHYs
 * @param frequencyHz          sustained clock
 * @param volts                supply voltage at that clock
 * @param frequencyLimit       what set the clock
 * @param computeWatts         dynamic compute power at that clock
 * @param dramWatts            DRAM I/O power at full bandwidth
 * @param linkWatts            scale-up link power at full bandwidth, both directions
 * @param staticWatts          leakage and uncore share of the budget
 * @param stacksRequested      DRAM stacks asked for
 * @param stacksFitted         DRAM stacks the die edge and package allow (at most requested)
 * @param stackLimit           what bounded the stacks
 * @param cost                 manufacturing cost and price
 */
public record DerivedChip(Chip chip, int physicalUnits, int enabledUnits, double computeAreaMm2, double frequencyHz,
                          double volts, FrequencyLimit frequencyLimit, double computeWatts, double dramWatts,
                          double linkWatts, double staticWatts, int stacksRequested, int stacksFitted,
                          StackLimit stackLimit, DieCost cost) {
    /** Total power at the operating point (the derived TDP). */
    public double watts() {
        return computeWatts + dramWatts + linkWatts + staticWatts;
    }
}
