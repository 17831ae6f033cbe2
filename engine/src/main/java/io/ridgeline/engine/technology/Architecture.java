package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.ChipFamily;
import io.ridgeline.engine.hardware.Precision;

/**
 * A compute microarchitecture (catalog/architectures.csv): what one compute unit (SM) does per cycle and how much
 * area it needs at its reference node. A derived chip reuses the calibration family of this generation.
 *
 * @param precisionRatio dense throughput per precision relative to bf16, indexed by {@link Precision#ordinal()}
 * @param energyScale    energy per FLOP relative to the node recipe (fitted on a sister product, see the CSV)
 */
public record Architecture(String id, ChipFamily family, LogicNode referenceNode, double bf16FlopsPerCyclePerUnit,
                           double unitMm2AtReferenceNode, double smemBytesPerUnit, double l2BytesPerCyclePerUnit,
                           double[] precisionRatio, double energyScale, String source) {
    public Architecture {
        if (precisionRatio.length != Precision.values().length) {
            throw new IllegalArgumentException("one ratio per precision: " + id);
        }
        precisionRatio = precisionRatio.clone();
        if (!(bf16FlopsPerCyclePerUnit > 0) || !(unitMm2AtReferenceNode > 0) || !(smemBytesPerUnit > 0)
                || !(l2BytesPerCyclePerUnit > 0) || !(energyScale > 0)) {
            throw new IllegalArgumentException("architecture quantities must be positive: " + id);
        }
    }

    /** Area of one unit (with its reference shared memory) on another node: recipe area scaling between nodes. */
    public double unitMm2(LogicNode node) {
        return unitMm2AtReferenceNode * node.logicAreaScale() / referenceNode.logicAreaScale();
    }

    public double ratio(Precision p) {
        return precisionRatio[p.ordinal()];
    }
}
