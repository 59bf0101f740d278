package io.worldflow;

/** What a schedule does at a fire time while the run it started before has not finished. */
public enum OverlapPolicy {
    /** The fire time starts nothing. */
    SKIP,
    /** The first such fire time waits and starts its run when the previous run ends; later ones start nothing. */
    BUFFER_ONE,
    /** The fire time starts its run beside the previous one. */
    ALLOW_ALL,
    /** The previous run is asked to cancel (its cleanup runs), and the fire time starts its run. */
    CANCEL_PREVIOUS,
    /** The previous run is terminated (none of its code runs any more), and the fire time starts its run. */
    TERMINATE_PREVIOUS
}
