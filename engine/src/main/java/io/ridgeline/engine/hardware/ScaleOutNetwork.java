package io.ridgeline.engine.hardware;

/**
 * An inter-node network as one GPU sees it.
 *
 * @param bytesPerSecond per GPU per direction (line rate x ports per GPU)
 * @param stepLatencySeconds one collective step across the network
 * @param efficiency sustained collective bandwidth over line rate
 */
public record ScaleOutNetwork(String id, String name, double bytesPerSecond, double stepLatencySeconds,
                              double efficiency, double joulesPerBit, double usdPerPort, String source) {
    public ScaleOutNetwork {
        if (!(bytesPerSecond > 0) || stepLatencySeconds < 0 || !(efficiency > 0 && efficiency <= 1)) {
            throw new IllegalArgumentException("invalid scale-out network " + id);
        }
    }

    /** The same network at a different per-GPU bandwidth (the {@code scale_out_gbit_s} of a case or sweep). */
    public ScaleOutNetwork withGbitPerSecond(double gbps) {
        return new ScaleOutNetwork(id, name, gbps * 1e9 / 8, stepLatencySeconds, efficiency, joulesPerBit,
                usdPerPort, source);
    }
}
