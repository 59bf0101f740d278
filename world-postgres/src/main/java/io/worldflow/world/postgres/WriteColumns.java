package io.worldflow.world.postgres;

import io.worldflow.world.jdbc.Sql;
import io.worldflow.spi.Append;
import io.worldflow.world.jdbc.EncodedAppend;
import org.jooq.Field;
import org.jooq.Table;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.table;

/**
 * What successful appends write besides the projection, gathered column-wise for {@code unnest}: their
 * log rows (one per append with events), the signals they consume and the runs they finish (named in a NOTIFY on the world's end channel,
 * delivered when the write commits). Shared by both ways of writing a batch.
 */
final class WriteColumns {

    static final Field<String> LOG_RUN = field(name("lg", "run_id"), String.class);
    static final Field<Long> LOG_SEQ = field(name("lg", "seq"), Long.class);
    static final Field<Long> LOG_LAST = field(name("lg", "last_seq"), Long.class);
    static final Field<String> LOG_EVENTS = field(name("lg", "events"), String.class);

    private final List<String> logRun = new ArrayList<>();
    private final List<Long> logSeq = new ArrayList<>();
    private final List<Long> logLast = new ArrayList<>();
    private final List<String> logEvents = new ArrayList<>();
    private final List<Long> signalIds = new ArrayList<>();
    private final List<String> signalRuns = new ArrayList<>();
    private final Set<String> finished = new LinkedHashSet<>();
    /** Under PostgreSQL's 8,000-byte NOTIFY payload limit. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;

    /** The log rows bound by {@link #bind}, as the table {@code lg}. */
    static Table<?> logRows() {
        return table("unnest({0}, {1}, {2}, {3})", param("logRun", String[].class), param("logSeq", Long[].class),
                param("logLast", Long[].class), param("logEvents", String[].class))
                .as("lg", "run_id", "seq", "last_seq", "events");
    }

    /** Adds one append's log row (when it has events), consumed signals and, when terminal, its run as finished. */
    void add(EncodedAppend encoded) {
        Append a = encoded.append();
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
        return (logRun.isEmpty() ? 0 : 1) | (signalIds.isEmpty() ? 0 : 2) | (finished.isEmpty() ? 0 : 4);
    }

    /** Binds the parts that {@code key} names. */
    void bind(Sql.Call call, int key) throws SQLException {
        if ((key & 1) != 0) {
            call.set("logRun", logRun.toArray(String[]::new)).set("logSeq", logSeq.toArray(Long[]::new))
                    .set("logLast", logLast.toArray(Long[]::new)).set("logEvents", logEvents.toArray(String[]::new));
        }
        if ((key & 2) != 0) {
            call.set("sigId", signalIds.toArray(Long[]::new)).set("sigRun", signalRuns.toArray(String[]::new));
        }
        if ((key & 4) != 0) {
            call.set("finished", finished.toArray(String[]::new)).set("endedPayload", endedPayload());
        }
    }
}
