package io.worldflow.runtime.internal;

import java.time.Instant;

/** One attempt of a step as its code sees it: on the thread that runs the step's code, through its context. */
final class StepAttempt {

    /** The attempt whose code runs on this thread, if any. */
    static final ThreadLocal<StepAttempt> CURRENT = new ThreadLocal<>();

    final String key;
    final int attempt;
    /** When the attempt must have ended (its timeout or the run's deadline, whichever is first), or null. */
    final Instant limit;
    /** Whether that limit is the run's deadline rather than the step's timeout. */
    final boolean limitIsDeadline;

    private volatile Instant lastBeat;
    private volatile Object details;

    StepAttempt(String key, int attempt, Instant limit, boolean limitIsDeadline, Instant started) {
        this.key = key;
        this.attempt = attempt;
        this.limit = limit;
        this.limitIsDeadline = limitIsDeadline;
        this.lastBeat = started;
    }

    void beat(Instant at, Object newDetails) {
        lastBeat = at;
        details = newDetails;
    }

    Instant lastBeat() {
        return lastBeat;
    }

    /** What the last heartbeat said, for the error of an attempt that times out; empty when it said nothing. */
    String lastDetails() {
        Object d = details;
        return d == null ? "" : "; its last heartbeat said: " + d;
    }
}
