package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.spi.Append;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A round's appends (each run once) column by column, as the arrays of {@link AppendStatement}'s statements for
 * several runs ({@code unnest}): the check and the projection after each append, a log row per append with events,
 * the signals consumed, the runs finished (named in a NOTIFY on the world's end channel) and the turns that end
 * with the run not finished.
 */
final class AppendColumns {

    /** Under PostgreSQL's 8,000-byte NOTIFY payload limit. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;

    /** The check and the projection after each append, in the appends' order. */
    private final String[] ids;

    private final Long[] expected;
    private final String[] statuses;
    private final Long[] lengths;
    private final Long[] updated;
    private final String[] outputs;
    private final String[] outputTypes;
    private final String[] errors;
    /** A log row per append with events. */
    private final List<String> logRun = new ArrayList<>();

    private final List<Long> logSeq = new ArrayList<>();
    private final List<Long> logLast = new ArrayList<>();
    private final List<String> logEvents = new ArrayList<>();
    private final List<Long> signalIds = new ArrayList<>();
    private final List<String> signalRuns = new ArrayList<>();
    private final Set<String> finished = new LinkedHashSet<>();
    /** The turns that end with the run not finished. */
    private final List<String> endRuns = new ArrayList<>();

    private final List<String> endTokens = new ArrayList<>();
    private final List<Long> endWakes = new ArrayList<>();

    AppendColumns(List<EncodedAppend> appends, Instant now) {
        int n = appends.size();
        ids = new String[n];
        expected = new Long[n];
        statuses = new String[n];
        lengths = new Long[n];
        updated = new Long[n];
        outputs = new String[n];
        outputTypes = new String[n];
        errors = new String[n];
        for (int i = 0; i < n; i++) {
            EncodedAppend encoded = appends.get(i);
            Append a = encoded.append();
            Payload output = a.output();
            ids[i] = a.runId();
            expected[i] = a.expectedSeq();
            statuses[i] = a.status().name();
            lengths[i] = a.nextSeq();
            updated[i] = updatedAt(a, now);
            outputs[i] = output == null ? null : output.json();
            outputTypes[i] = output == null ? null : output.type();
            errors[i] = encoded.error();
            if (encoded.events() != null) {
                logRun.add(a.runId());
                logSeq.add(a.expectedSeq());
                logLast.add(a.nextSeq() - 1);
                logEvents.add(encoded.events());
            }
            for (Long id : a.consumedSignals()) {
                signalIds.add(id);
                signalRuns.add(a.runId());
            }
            if (a.status().isTerminal()) {
                finished.add(a.runId());
            } else if (a.turnEnd() != null) {
                endRuns.add(a.runId());
                endTokens.add(a.turnEnd().lease().token());
                endWakes.add(Micros.orNull(a.turnEnd().wakeAt()));
            }
        }
    }

    /** Binds the arrays; those of the turns that end only when there are some ({@link #endsTurns}). */
    void bind(Sql.Call call) throws SQLException {
        call.set("ids", ids)
                .set("expected", expected)
                .set("prStatus", statuses)
                .set("prLength", lengths)
                .set("prUpdated", updated)
                .set("prOutput", outputs)
                .set("prOutputType", outputTypes)
                .set("prError", errors);
        call.set("logRun", logRun.toArray(String[]::new))
                .set("logSeq", logSeq.toArray(Long[]::new))
                .set("logLast", logLast.toArray(Long[]::new))
                .set("logEvents", logEvents.toArray(String[]::new));
        call.set("sigId", signalIds.toArray(Long[]::new)).set("sigRun", signalRuns.toArray(String[]::new));
        call.set("finished", finished.toArray(String[]::new)).set("endedPayload", endedPayload(finished));
        if (endsTurns()) {
            call.set("endRun", endRuns.toArray(String[]::new))
                    .set("endToken", endTokens.toArray(String[]::new))
                    .set("endWake", endWakes.toArray(Long[]::new));
        }
    }

    /** Whether a turn ends with its run not finished. */
    boolean endsTurns() {
        return !endRuns.isEmpty();
    }

    /** The projection's {@code updatedAt}: the last event's instant, or {@code now} for the status alone. */
    static long updatedAt(Append a, Instant now) {
        return Micros.of(a.events().isEmpty() ? now : a.lastAt());
    }

    /**
     * The NOTIFY payload naming the finished runs, one per line (run ids hold no control characters), or
     * {@code "*"} ("some runs ended") when the list would pass PostgreSQL's payload limit.
     */
    static String endedPayload(Set<String> finished) {
        String joined = String.join("\n", finished);
        return joined.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? joined : "*";
    }
}
