package io.worldflow.runtime.internal;

import io.worldflow.RunStateException;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveEvent;
import io.worldflow.event.StepFailed;
import io.worldflow.event.WorkflowFailed;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a failed run is retried from: the step whose final failure ended it, when the workflow did not
 * handle that failure. A failure the code caught and went on from (a compensation, say) cannot be voided
 * without contradicting what the log says happened next, so such a run is refused.
 */
public final class RetryPlan {

    private RetryPlan() {}

    /**
     * @param events the failed run's whole log
     * @return the step to run again, or null when the workflow code itself failed (it is replayed as is)
     * @throws RunStateException when the log does not end in {@code WorkflowFailed}, or the failure was handled
     */
    public static String failedStep(String runId, List<Event> events) {
        if (events.isEmpty() || !(events.getLast() instanceof WorkflowFailed)) {
            throw new RunStateException("cannot retry run '" + runId + "': its log does not end in a failure");
        }
        int failedAt = -1;
        for (int i = events.size() - 1; i >= 0 && failedAt < 0; i--) {
            if (events.get(i) instanceof StepFailed) {
                failedAt = i;
            }
        }
        if (failedAt < 0) {
            return null;
        }
        String stepId = ((StepFailed) events.get(failedAt)).stepId();
        String scope = Ids.scopeOf(stepId);
        Set<String> known = new HashSet<>();
        for (int i = 0; i < failedAt; i++) {
            if (events.get(i) instanceof PrimitiveEvent p) {
                known.add(p.primitiveId());
            }
        }
        for (int i = failedAt + 1; i < events.size(); i++) {
            if (events.get(i) instanceof PrimitiveEvent p
                    && !known.contains(p.primitiveId())
                    && !Ids.isVersionMarker(p.primitiveId())
                    && encloses(Ids.scopeOf(p.primitiveId()), scope)) {
                throw new RunStateException("cannot retry run '" + runId + "' from step '" + stepId
                        + "': the workflow handled that failure and went on to '" + p.primitiveId()
                        + "', so running the step again would contradict its recorded history");
            }
        }
        return stepId;
    }

    /** Whether code in {@code outer} runs around (or is) {@code inner}: it sees a failure raised in it. */
    private static boolean encloses(String outer, String inner) {
        return outer.equals(inner) || outer.isEmpty() || inner.startsWith(outer + "/");
    }
}
