package io.ridgeline.engine.cost;

/**
 * Capital cost of a fabric: switches, optics (transceivers, two per optical link), cables and NIC ports. USD and
 * watts (switch boxes only; link energy is per bit, see catalog/links.csv).
 */
public record NetworkCapex(int switchCount, int opticCount, int cableCount, int nicCount, double switchUsd,
                           double opticUsd, double cableUsd, double nicUsd, double switchWatts) {
    public NetworkCapex {
        if (switchCount < 0 || opticCount < 0 || cableCount < 0 || nicCount < 0 || switchUsd < 0 || opticUsd < 0
                || cableUsd < 0 || nicUsd < 0 || switchWatts < 0) {
            throw new IllegalArgumentException("capex terms must be non-negative");
        }
    }

    public double totalUsd() {
        return switchUsd + opticUsd + cableUsd + nicUsd;
    }

    /** Sum of two fabrics (a scale-up domain fabric plus a scale-out fabric). */
    public NetworkCapex plus(NetworkCapex o) {
        return new NetworkCapex(switchCount + o.switchCount, opticCount + o.opticCount, cableCount + o.cableCount,
                nicCount + o.nicCount, switchUsd + o.switchUsd, opticUsd + o.opticUsd, cableUsd + o.cableUsd,
                nicUsd + o.nicUsd, switchWatts + o.switchWatts);
    }
}
