package io.ridgeline.engine.technology;

/**
 * One logic process node (catalog/logic_nodes.csv). Voltages in volts, energies in joules, SI throughout.
 *
 * @param logicAreaScale     area of the same logic relative to 7 nm (DeepFlow recipe: x0.67 per full node step)
 * @param sramMm2PerMib      SRAM macro area per MiB including tags, ECC and periphery
 * @param bf16JoulesPerFlop  energy of one dense bf16 FLOP at nominal voltage
 * @param nominalHz          clock at nominal voltage
 * @param alpha              alpha-power-law exponent (Sakurai and Newton 1990)
 * @param defectsPerCm2      D0 of the negative-binomial yield model
 */
public record LogicNode(String id, double nodeNm, int stepsFrom7nm, double logicAreaScale, double sramMm2PerMib,
                        double bf16JoulesPerFlop, double nominalVolts, double thresholdVolts, double minVolts,
                        double maxVolts, double nominalHz, double alpha, double waferUsd, double defectsPerCm2,
                        String source) {
    public LogicNode {
        if (!(logicAreaScale > 0) || !(sramMm2PerMib > 0) || !(bf16JoulesPerFlop > 0) || !(nominalHz > 0)
                || !(alpha > 0) || !(waferUsd > 0) || defectsPerCm2 < 0) {
            throw new IllegalArgumentException("logic node quantities must be positive: " + id);
        }
        if (!(thresholdVolts > 0 && thresholdVolts < minVolts && minVolts <= nominalVolts
                && nominalVolts <= maxVolts)) {
            throw new IllegalArgumentException("logic node voltages must satisfy 0 < Vt < Vmin <= Vnom <= Vmax: " + id);
        }
    }

    /** Relative speed g(V) = (V - Vt)^alpha / V of the alpha-power law; frequency is proportional to it. */
    public double speed(double volts) {
        return Math.pow(volts - thresholdVolts, alpha) / volts;
    }

    /** Clock at a supply voltage: nominal clock x g(V) / g(Vnom) (alpha-power law, Sakurai and Newton 1990). */
    public double frequencyHz(double volts) {
        return nominalHz * speed(volts) / speed(nominalVolts);
    }

    /** Dynamic energy of one bf16 FLOP at a supply voltage: E ~ C V^2 (CMOS switching energy). */
    public double bf16JoulesPerFlop(double volts) {
        double r = volts / nominalVolts;
        return bf16JoulesPerFlop * r * r;
    }
}
