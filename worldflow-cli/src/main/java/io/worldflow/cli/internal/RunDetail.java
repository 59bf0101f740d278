package io.worldflow.cli.internal;

import io.worldflow.RunInfo;

import java.time.Instant;
import java.util.Map;

/**
 * One run's state as its projection holds it; what it waits on, its parent and its schedule are read from its events
 * ({@link RunWaits}), so that both ways of reaching a run show the same.
 *
 * @param key           the ordering key it was started with in its queue, or null
 * @param error         the failure's summary once it failed, else null
 * @param heldReason    why the run is held, or null when it is not
 * @param cancelRequest the cancellation asked for and not yet carried out, or null
 * @param output        the result's JSON once completed (as stored: sealed when payloads are encrypted), else null
 */
public record RunDetail(
        String runId,
        String workflow,
        String status,
        Instant createdAt,
        Instant updatedAt,
        Instant deadline,
        String queue,
        String key,
        int priority,
        long logLength,
        String error,
        String heldReason,
        Instant heldSince,
        CancelRequest cancelRequest,
        String output,
        Map<String, Object> attributes) {

    /** A cancellation asked for: why, when, whether it terminates the run, and who asked. */
    public record CancelRequest(String reason, Instant requestedAt, boolean terminate, String actor) {}

    public RunDetail {
        attributes = attributes == null ? Map.of() : attributes;
    }

    static RunDetail of(RunInfo r) {
        RunInfo.CancelRequest c = r.cancelRequest();
        return new RunDetail(
                r.runId(),
                r.workflow(),
                r.status().name(),
                r.createdAt(),
                r.updatedAt(),
                r.deadline(),
                r.queue(),
                r.key(),
                r.priority(),
                r.logLength(),
                r.error() == null ? null : r.error().summary(),
                r.isHeld() ? r.held().summary() : null,
                r.heldSince(),
                c == null ? null : new CancelRequest(c.reason(), c.requestedAt(), c.terminate(), c.actor()),
                r.output() == null ? null : r.output().json(),
                r.searchAttributes().asMap());
    }
}
