package io.worldflow.spi;

import io.worldflow.RunInfo;
import io.worldflow.event.Event;

import java.util.List;
import java.util.Objects;

/**
 * A run as a worker needs it to start a turn: its projection and its whole log, read together.
 *
 * @param info   the projection
 * @param events every event, from seq 0, in order
 */
public record LoadedRun(RunInfo info, List<Event> events) {

    public LoadedRun {
        Objects.requireNonNull(info, "info");
        events = List.copyOf(events);
    }
}
