package io.worldflow.event;

import java.time.Instant;

/**
 * A race was decided: {@code winnerId}, its contender at {@code winner} (from 0), finished first. A replay returns
 * the same winner whatever order the outcomes come in then.
 */
public record RaceWon(String runId, long seq, Instant at, String raceId, int winner, String winnerId)
        implements PrimitiveEvent {

    public RaceWon {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return raceId;
    }
}
