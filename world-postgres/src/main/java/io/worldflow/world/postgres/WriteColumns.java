package io.worldflow.world.postgres;

import io.worldflow.event.Event;
import io.worldflow.spi.Append;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What successful appends write besides the projection, gathered column-wise for {@code unnest}: their
 * events, the signals they consume and the runs they finish (named in a NOTIFY on the world's end channel,
 * delivered when the write commits). Shared by both ways of writing a batch.
 */
final class WriteColumns {

    private final List<String> eventRun = new ArrayList<>();
    private final List<Long> eventSeq = new ArrayList<>();
    private final List<String> eventType = new ArrayList<>();
    private final List<Long> eventAt = new ArrayList<>();
    private final List<String> eventJson = new ArrayList<>();
    private final List<Long> signalIds = new ArrayList<>();
    private final List<String> signalRuns = new ArrayList<>();
    private final Set<String> finished = new LinkedHashSet<>();
    /** Under PostgreSQL's 8,000-byte NOTIFY payload limit. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;

    /** Adds one append's events (with their JSON), consumed signals and, when terminal, its run as finished. */
    void add(AppendBatch.Encoded encoded) {
        Append a = encoded.append();
        List<Event> events = a.events();
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            eventRun.add(a.runId());
            eventSeq.add(event.seq());
            eventType.add(event.type());
            eventAt.add(Micros.of(event.at()));
            eventJson.add(encoded.events().get(i));
        }
        for (Long id : a.consumedSignals()) {
            signalIds.add(id);
            signalRuns.add(a.runId());
        }
        if (a.status().isTerminal()) {
            finished.add(a.runId());
        }
    }

    /**
     * The NOTIFY payload naming the finished runs, one per line (run ids hold no control characters), or
     * {@code "*"} ("some runs ended") when the list would pass PostgreSQL's payload limit.
     */
    String endedPayload() {
        String joined = String.join("\n", finished);
        return joined.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? joined : "*";
    }

    boolean isFinished(String runId) {
        return finished.contains(runId);
    }

    /** Which parts the write statement needs: 1 events, 2 consumed signals, 4 finished runs. */
    int key() {
        return (eventRun.isEmpty() ? 0 : 1) | (signalIds.isEmpty() ? 0 : 2) | (finished.isEmpty() ? 0 : 4);
    }

    /** Binds the parts that {@code key} names. */
    void bind(Sql.Call call, int key) throws SQLException {
        if ((key & 1) != 0) {
            call.set("evRun", eventRun.toArray(String[]::new)).set("evSeq", eventSeq.toArray(Long[]::new))
                    .set("evType", eventType.toArray(String[]::new)).set("evAt", eventAt.toArray(Long[]::new))
                    .set("evJson", eventJson.toArray(String[]::new));
        }
        if ((key & 2) != 0) {
            call.set("sigId", signalIds.toArray(Long[]::new)).set("sigRun", signalRuns.toArray(String[]::new));
        }
        if ((key & 4) != 0) {
            call.set("finished", finished.toArray(String[]::new)).set("endedPayload", endedPayload());
        }
    }
}
