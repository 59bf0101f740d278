package io.worldflow.event;

import java.time.Instant;
import java.util.List;

/** A race began between primitives already started, named by their ids in the order the code gave them. */
public record RaceStarted(String runId, long seq, Instant at, String raceId, String name, List<String> contenders)
        implements PrimitiveEvent {

    public RaceStarted {
        Event.check(runId, seq, at);
        contenders = List.copyOf(contenders);
    }

    @Override
    public String primitiveId() {
        return raceId;
    }
}
