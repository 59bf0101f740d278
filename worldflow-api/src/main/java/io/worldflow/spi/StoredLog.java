package io.worldflow.spi;

import java.util.List;
import java.util.Objects;

/**
 * A run's log as the world stores it, for checking its hash chain ({@link EventLog#storedLog}): its records in seq
 * order, the length and the head link its projection holds. Read as one snapshot.
 *
 * @param runId     the run
 * @param logLength the log's length, as the run's projection states it
 * @param head      the link of the run's last record, as the projection holds it; null when it has none
 * @param records   every record, in the order of their seq, as found
 */
public record StoredLog(String runId, long logLength, byte[] head, List<StoredRecord> records) {

    public StoredLog {
        Objects.requireNonNull(runId, "runId");
        records = List.copyOf(records);
    }
}
