package io.worldflow.runtime.internal;

import java.util.Locale;

/**
 * Unwinds a run's threads when its turn ends early: suspended (every thread waits on something
 * durable) or aborted (fenced off by another worker, lease lost, shutdown). An {@link Error} so that
 * workflow code catching {@code Exception} does not swallow it.
 */
final class ExecutionStop extends Error {

    enum Reason {
        SUSPENDED,
        ABORTED
    }

    final Reason reason;

    ExecutionStop(Reason reason) {
        super(reason.name().toLowerCase(Locale.ROOT), null, false, false);
        this.reason = reason;
    }
}
