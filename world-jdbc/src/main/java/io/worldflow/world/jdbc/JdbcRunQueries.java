package io.worldflow.world.jdbc;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.RunCursor;
import io.worldflow.spi.RunQueries;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads of the {@code runs} projection: a page is the runs newest first by creation, and its cursor the last
 * run's creation time and id, so that a page does not move when runs are created meanwhile.
 */
public class JdbcRunQueries implements RunQueries {

    private final SqlDatabase db;
    private final RunRows rows;

    public JdbcRunQueries(SqlDatabase db, EventCodec codec) {
        this.db = db;
        this.rows = new RunRows(db.dialect(), codec);
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
        RunFilter filter = RunFilter.of(db.dialect(), query, true, cursor);
        Sql sql = Sql.of("SELECT " + filter.columns() + " FROM " + filter.from() + filter.where() + " ORDER BY "
                + filter.newestFirst() + " LIMIT :limit");
        List<RunInfo> found = db.read(
                "list runs",
                null,
                tx -> filter.bind(tx.call(sql)).set("limit", query.limit() + 1).list(rs -> rows.map(rs, 0)));
        if (found.size() <= query.limit()) {
            return new RunPage(found, null);
        }
        List<RunInfo> page = found.subList(0, query.limit());
        RunInfo last = page.getLast();
        return new RunPage(page, new RunCursor(Micros.of(last.createdAt()), last.runId()).encode());
    }

    /** Every status is present, with 0 when no run matches. */
    @Override
    public Map<RunStatus, Long> countByStatus(RunQuery query) {
        Objects.requireNonNull(query, "query");
        RunFilter filter = RunFilter.of(db.dialect(), query, false, null);
        Sql sql = Sql.of("SELECT status, COUNT(*) FROM " + filter.from() + filter.where() + " GROUP BY status");
        Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            counts.put(s, 0L);
        }
        String world = db.dialect().world();
        db.read("count runs", null, tx -> {
            filter.bind(tx.call(sql))
                    .each(rs -> counts.put(RunRows.status(world, rs.getString(1), "?"), rs.getLong(2)));
            return null;
        });
        return Collections.unmodifiableMap(counts);
    }
}
