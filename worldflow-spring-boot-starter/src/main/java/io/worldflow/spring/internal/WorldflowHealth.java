package io.worldflow.spring.internal;

import io.worldflow.RunQuery;
import io.worldflow.runtime.Worldflow;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the health indicators report, whichever Spring Boot line's API shows it: the world and whether it can be read,
 * the worker's state, and how many runs are held. Down when the world cannot be read, or when the worker should run
 * and does not.
 */
public final class WorldflowHealth {

    /** One look: up or down, and the details to show. */
    public record Check(boolean up, Map<String, Object> details) {}

    private final Worldflow worldflow;
    private final WorkerLifecycle worker;

    /** @param worker null when the worker is turned off ({@code worldflow.worker.enabled=false}) */
    public WorldflowHealth(Worldflow worldflow, WorkerLifecycle worker) {
        this.worldflow = worldflow;
        this.worker = worker;
    }

    public Check check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("world", worldflow.world().name());
        boolean up = true;
        if (worker == null) {
            details.put("worker", "disabled");
        } else {
            details.put("worker", worker.isRunning() ? "running" : "stopped");
            up = worker.isRunning();
        }
        try {
            long held = worldflow.counts(RunQuery.all().withHeld(true)).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            details.put("heldRuns", held);
        } catch (RuntimeException e) {
            details.put("error", "the world cannot be read: " + e);
            up = false;
        }
        return new Check(up, details);
    }
}
