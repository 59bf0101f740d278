package io.worldflow.world.postgres;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.RunCursor;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.TaskQueue;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;
import org.jooq.Condition;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

import static org.jooq.impl.DSL.count;

/** Reads of the {@code runs} projection. */
final class PgRunQueries implements RunQueries {

    private final Database db;
    private final Tables.Runs runs;
    private final RunRows rows;
    private final boolean utf8;
    private final DueListener listener;

    PgRunQueries(Database db, EventCodec codec, boolean utf8, DueListener listener) {
        this.db = db;
        this.listener = listener;
        this.runs = db.tables.runs;
        this.rows = new RunRows(db.tables, codec);
        this.utf8 = utf8;
    }

    @Override
    public Optional<RunInfo> get(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read("get", Failures.run(runId), tx -> rows.find(tx, runId));
    }

    @Override
    public RunPage list(RunQuery query) {
        Objects.requireNonNull(query, "query");
        RunCursor cursor = query.cursor() == null ? null : RunCursor.decode(query.cursor());
        Condition where = RunFilter.of(runs, query, true, cursor, utf8);
        List<RunInfo> found = db.read("list runs", null, tx -> {
            List<RunInfo> out = new ArrayList<>();
            try (ResultSet rs = tx.dsl().select(rows.columns)
                    .from(runs.table)
                    .where(where)
                    .orderBy(runs.createdAt.desc(), runs.runId.desc())
                    .limit(query.limit() + 1)
                    .fetchResultSet()) {
                while (rs.next()) {
                    out.add(rows.map(rs));
                }
            }
            return out;
        });
        if (found.size() <= query.limit()) {
            return new RunPage(found, null);
        }
        List<RunInfo> page = found.subList(0, query.limit());
        RunInfo last = page.getLast();
        return new RunPage(page, new RunCursor(Micros.of(last.createdAt()), last.runId()).encode());
    }

    /** Hears of runs finished by any process through the world's end channel (LISTEN/NOTIFY). */
    @Override
    public TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
        Objects.requireNonNull(ended, "ended");
        return listener.subscribeEnded(ended);
    }

    /** Every status is present, with 0 when no run matches. */
    @Override
    public Map<RunStatus, Long> countByStatus(RunQuery query) {
        Objects.requireNonNull(query, "query");
        Condition where = RunFilter.of(runs, query, false, null, utf8);
        Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            counts.put(s, 0L);
        }
        db.read("count runs", null, tx -> {
            tx.dsl().select(runs.status, count()).from(runs.table).where(where).groupBy(runs.status)
                    .fetch().forEach(r -> counts.put(RunRows.status(r.value1(), "?"), r.value2().longValue()));
            return null;
        });
        return Collections.unmodifiableMap(counts);
    }
}
