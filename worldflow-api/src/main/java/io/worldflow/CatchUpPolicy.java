package io.worldflow;

/**
 * What a schedule does with fire times it missed while no worker was up to fire them (Quartz's misfire instructions):
 * a fire time is missed when a worker finds it more than a minute past. Missed fire times older than the schedule's
 * catch-up window start nothing whatever the policy.
 */
public enum CatchUpPolicy {
    /** Every missed fire time within the window starts its run, oldest first (the overlap policy applies). */
    ALL,
    /** The latest missed fire time within the window starts one run; the others start nothing (Quartz's "fire once now"). */
    LATEST,
    /** Missed fire times start nothing; the schedule goes on from the next one (Quartz's "do nothing"). */
    NONE
}
