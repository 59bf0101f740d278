package io.worldflow.world.local;

import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.RunCursor;
import io.worldflow.world.jdbc.Micros;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A {@link RunQuery}'s filters as a SQL {@code WHERE} clause with its parameters. */
final class RunFilter {

    private final List<String> conditions = new ArrayList<>();
    private final List<Object> params = new ArrayList<>();

    /**
     * @param withStatuses whether to filter by the query's statuses (a count per status does not)
     * @param cursor       resume after this run, or null
     */
    static RunFilter of(RunQuery query, boolean withStatuses, RunCursor cursor) {
        RunFilter f = new RunFilter();
        if (withStatuses && !query.statuses().isEmpty()) {
            List<String> marks = new ArrayList<>();
            for (RunStatus s : query.statuses().stream().sorted().toList()) {
                marks.add("?");
                f.params.add(s.name());
            }
            f.conditions.add("status IN (" + String.join(", ", marks) + ")");
        }
        if (query.held() != null) {
            f.conditions.add(query.held() ? "held IS NOT NULL" : "held IS NULL");
        }
        if (query.workflow() != null) {
            f.add("workflow = ?", query.workflow());
        }
        if (query.idPrefix() != null && !query.idPrefix().isEmpty()) {
            // A literal, case-sensitive prefix: LIKE would read % and _ as wildcards and ignore case.
            // The range lets SQLite use the primary key; substr() decides.
            f.add("run_id >= ?", query.idPrefix());
            f.add("substr(run_id, 1, length(?)) = ?", query.idPrefix(), query.idPrefix());
        }
        if (query.createdAfter() != null) {
            f.add("created_at >= ?", Micros.of(query.createdAfter()));
        }
        if (query.createdBefore() != null) {
            f.add("created_at < ?", Micros.of(query.createdBefore()));
        }
        if (cursor != null) {
            f.add("(created_at, run_id) < (?, ?)", cursor.createdAtMicros(), cursor.runId());
        }
        return f;
    }

    /** " WHERE a AND b", or "" without conditions. */
    String where() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /** Binds the parameters from index 1; returns the next free index. */
    int bind(PreparedStatement ps) throws SQLException {
        int i = 1;
        for (Object p : params) {
            ps.setObject(i++, p);
        }
        return i;
    }

    private void add(String condition, Object... values) {
        conditions.add(condition);
        params.addAll(List.of(values));
    }
}
