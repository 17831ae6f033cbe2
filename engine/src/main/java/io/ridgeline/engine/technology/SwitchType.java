package io.ridgeline.engine.technology;

/** One switch (catalog/switches.csv): {@code radix} ports of {@code link}, one hop of {@code latencySeconds}. */
public record SwitchType(String id, String name, LinkType link, int radix, double latencySeconds, double watts,
                         double usd, String source) {
    public SwitchType {
        if (radix < 2 || latencySeconds < 0 || watts < 0 || usd < 0) {
            throw new IllegalArgumentException("invalid switch " + id);
        }
    }
}
