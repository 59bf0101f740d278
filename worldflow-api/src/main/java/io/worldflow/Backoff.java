package io.worldflow;

/** How the delay between a step's attempts grows. */
public enum Backoff {
    /** Always the initial delay. */
    CONSTANT,
    /** initial delay × attempt number. */
    LINEAR,
    /** initial delay × multiplier^(attempt − 1). */
    EXPONENTIAL
}
