package io.ridgeline.engine.technology;

/**
 * One link technology (catalog/links.csv): an NVLink link, a PCIe x16 port or a NIC port. SI units.
 *
 * @param bytesPerSecond per link or port, per direction
 * @param latencySeconds one end-to-end traversal of the link without switches
 * @param phyMm2         on-die PHY area per link (scale-up links only)
 */
public record LinkType(String id, String name, boolean scaleUp, double bytesPerSecond, double latencySeconds,
                       double joulesPerBit, double phyMm2, double usdPerPort, double opticUsd, double cableUsd,
                       String source) {
    public LinkType {
        if (!(bytesPerSecond > 0) || latencySeconds < 0 || joulesPerBit < 0 || phyMm2 < 0 || usdPerPort < 0
                || opticUsd < 0 || cableUsd < 0) {
            throw new IllegalArgumentException("invalid link type " + id);
        }
    }
}
