package io.worldflow.world.jdbc;

import io.worldflow.RunQuery;
import io.worldflow.spi.RunCursor;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@link RunQuery}'s filters as a SQL {@code WHERE} clause over the {@code runs} table, with its parameters. */
public final class RunFilter {

    private final List<String> conditions = new ArrayList<>();
    private final Map<String, Object> params = new LinkedHashMap<>();

    private RunFilter() {}

    /**
     * @param withStatuses whether to filter by the query's statuses (a count per status does not)
     * @param cursor       resume after this run, or null
     */
    public static RunFilter of(SqlDialect dialect, RunQuery query, boolean withStatuses, RunCursor cursor) {
        RunFilter f = new RunFilter();
        if (withStatuses && !query.statuses().isEmpty()) {
            f.conditions.add(dialect.statusIn(query.statuses().stream().sorted().toList(), f));
        }
        if (query.held() != null) {
            f.conditions.add(query.held() ? "held IS NOT NULL" : "held IS NULL");
        }
        if (query.parent() != null) {
            f.conditions.add("parent_run_id = " + f.param(query.parent()));
        }
        if (query.workflow() != null) {
            f.conditions.add("workflow = " + f.param(query.workflow()));
        }
        String prefix = query.idPrefix();
        if (prefix != null && !prefix.isEmpty()) {
            // A literal, case-sensitive prefix: LIKE would read % and _ as wildcards (and SQLite's ignores case).
            // The range lets the primary key find the candidates; the comparison of the first characters decides.
            String p = f.param(prefix);
            f.conditions.add("run_id >= " + p);
            String upper = dialect.codePointOrder() ? upperBound(prefix) : null;
            if (upper != null) {
                f.conditions.add("run_id < " + f.param(upper));
            }
            f.conditions.add("substr(run_id, 1, length(" + p + ")) = " + p);
        }
        if (query.createdAfter() != null) {
            f.conditions.add("created_at >= " + f.param(Micros.of(query.createdAfter())));
        }
        if (query.createdBefore() != null) {
            f.conditions.add("created_at < " + f.param(Micros.of(query.createdBefore())));
        }
        if (cursor != null) {
            f.conditions.add("(created_at, run_id) < (" + f.param(cursor.createdAtMicros()) + ", "
                    + f.param(cursor.runId()) + ")");
        }
        return f;
    }

    /** A parameter holding {@code value}: its placeholder, to stand in a condition. */
    public String param(Object value) {
        String name = "f" + params.size();
        params.put(name, value);
        return ":" + name;
    }

    /** " WHERE a AND b", or "" without conditions. */
    public String where() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /** Binds the filter's parameters on a call of a statement that holds {@link #where()}. */
    public Sql.Call bind(Sql.Call call) throws SQLException {
        for (Map.Entry<String, Object> p : params.entrySet()) {
            call.set(p.getKey(), p.getValue());
        }
        return call;
    }

    /**
     * The least string above every string that starts with {@code prefix}, in code point order: the prefix with
     * its last code point raised by one (dropping trailing code points that cannot be raised). Null when there is
     * none.
     */
    static String upperBound(String prefix) {
        int[] cps = prefix.codePoints().toArray();
        for (int i = cps.length - 1; i >= 0; i--) {
            int next = cps[i] + 1;
            if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
                next = Character.MAX_SURROGATE + 1;
            }
            if (next <= Character.MAX_CODE_POINT) {
                cps[i] = next;
                return new String(cps, 0, i + 1);
            }
        }
        return null;
    }
}
