package io.worldflow.event;

import java.time.Instant;
import java.util.List;

/**
 * The workflow changed its run's search attributes.
 *
 * @param updateId   the primitive's id
 * @param attributes the changes in order, each {@code name=<type>:<value>} for a value set, or {@code name} alone for
 *                   one removed ({@link io.worldflow.spi.SearchValues})
 */
public record SearchAttributesUpdated(String runId, long seq, Instant at, String updateId, List<String> attributes)
        implements PrimitiveEvent {

    public SearchAttributesUpdated {
        Event.check(runId, seq, at);
        attributes = List.copyOf(attributes);
    }

    @Override
    public String primitiveId() {
        return updateId;
    }
}
