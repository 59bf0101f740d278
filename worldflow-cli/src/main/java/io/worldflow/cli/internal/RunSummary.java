package io.worldflow.cli.internal;

import io.worldflow.RunInfo;

import java.time.Instant;
import java.util.Map;

/**
 * A run as a list shows it, the same whether it was read from the world or from a dashboard.
 *
 * @param heldReason why the run is held, or null when it is not
 * @param error      the failure's summary once it failed, else null
 * @param attributes its search attributes, name to value, in name order
 */
public record RunSummary(
        String runId,
        String workflow,
        String status,
        Instant createdAt,
        Instant updatedAt,
        String heldReason,
        String error,
        Map<String, Object> attributes) {

    public RunSummary {
        attributes = attributes == null ? Map.of() : attributes;
    }

    static RunSummary of(RunInfo r) {
        return new RunSummary(
                r.runId(),
                r.workflow(),
                r.status().name(),
                r.createdAt(),
                r.updatedAt(),
                r.isHeld() ? r.held().summary() : null,
                r.error() == null ? null : r.error().summary(),
                r.searchAttributes().asMap());
    }
}
