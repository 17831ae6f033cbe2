package io.ridgeline.engine.technology;

/** What bounded the number of DRAM stacks a derived chip got. */
public enum StackLimit {
    /** All requested stacks fit. */
    NONE,
    /** The die edge available to DRAM PHYs (shoreline). */
    SHORELINE,
    /** The interposer/package area. */
    PACKAGE
}
