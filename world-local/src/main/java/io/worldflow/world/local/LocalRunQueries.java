package io.worldflow.world.local;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.RunCursor;
import io.worldflow.spi.RunQueries;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Reads of the {@code runs} projection, on the read connections. */
final class LocalRunQueries implements RunQueries {

    private final Database db;
    private final RunRows rows;

    LocalRunQueries(Database db, EventCodec codec) {
        this.db = db;
        this.rows = new RunRows(codec);
    }

    @Override
    public Optional<RunInfo> get(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read("get", Failures.run(runId), sql -> rows.find(sql, runId));
    }

    @Override
    public RunPage list(RunQuery query) {
        Objects.requireNonNull(query, "query");
        RunCursor cursor = query.cursor() == null ? null : RunCursor.decode(query.cursor());
        RunFilter filter = RunFilter.of(query, true, cursor);
        String sql = "SELECT " + RunRows.COLUMNS + " FROM runs" + filter.where()
                + " ORDER BY created_at DESC, run_id DESC LIMIT ?";
        List<RunInfo> runs = db.read("list runs", null, statements -> {
            PreparedStatement ps = statements.prepare(sql);
            int next = filter.bind(ps);
            ps.setInt(next, query.limit() + 1);
            List<RunInfo> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rows.map(rs));
                }
            }
            return out;
        });
        if (runs.size() <= query.limit()) {
            return new RunPage(runs, null);
        }
        List<RunInfo> page = runs.subList(0, query.limit());
        RunInfo last = page.getLast();
        return new RunPage(page, new RunCursor(Micros.of(last.createdAt()), last.runId()).encode());
    }

    /** Every status is present, with 0 when no run matches. */
    @Override
    public Map<RunStatus, Long> countByStatus(RunQuery query) {
        Objects.requireNonNull(query, "query");
        RunFilter filter = RunFilter.of(query, false, null);
        String sql = "SELECT status, COUNT(*) FROM runs" + filter.where() + " GROUP BY status";
        Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            counts.put(s, 0L);
        }
        db.read("count runs", null, statements -> {
            PreparedStatement ps = statements.prepare(sql);
            filter.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(RunRows.status(rs.getString(1), "?"), rs.getLong(2));
                }
            }
            return null;
        });
        return Collections.unmodifiableMap(counts);
    }
}
