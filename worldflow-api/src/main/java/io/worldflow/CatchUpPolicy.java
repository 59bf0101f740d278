package io.worldflow;

/**
 * What a schedule does with fire times it missed while no worker was up to fire them (Quartz's misfire instructions):
 * when a worker finds several fire times due at once, all but the newest were missed, and the newest too when it is
 * more than a minute past. Missed fire times older than the schedule's catch-up window start nothing whatever the
 * policy.
 */
public enum CatchUpPolicy {
    /**
     * Every missed fire time within the window starts its run, oldest first. With an overlap policy that runs one at a
     * time ({@link OverlapPolicy#SKIP}, {@link OverlapPolicy#BUFFER_ONE}) they start in turn, each once the run before
     * it has ended, rather than being skipped; with {@link OverlapPolicy#ALLOW_ALL} together.
     */
    ALL,
    /** Only the latest fire time due starts a run; the others start nothing (Quartz's "fire once now"). */
    LATEST,
    /** Missed fire times start nothing; the schedule goes on from the next one (Quartz's "do nothing"). */
    NONE
}
