package io.ridgeline.engine.technology;

/** What set a derived chip's clock. */
public enum FrequencyLimit {
    /** The power budget: the voltage/frequency point where compute power equals what is left of the budget. */
    POWER,
    /** The maximum supply voltage: the budget would allow more, the transistors would not. */
    MAX_VOLTAGE,
    /** Even at the minimum voltage the budget is exceeded: the clock drops linearly below that point. */
    MIN_VOLTAGE
}
