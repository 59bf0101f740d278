package io.worldflow.world.jdbc;

import io.worldflow.RunQuery;
import io.worldflow.spi.RunCursor;
import io.worldflow.spi.SearchValues;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RunQuery}'s filters as the {@code FROM} and {@code WHERE} of a statement over the {@code runs} table, with
 * its parameters. A query by search attributes reads the runs from the {@code run_attributes} rows of its first
 * attribute, whose index holds them by name and value newest first, so that a page of a search reads that page's rows
 * and not every run: the creation time and id (the order and the cursor) are then that row's, the other conditions
 * the run's, and each further attribute is looked up by the run's id and its name.
 */
public final class RunFilter {

    private final List<String> conditions = new ArrayList<>();
    private final Map<String, Object> params = new LinkedHashMap<>();
    private final String from;
    private final String key;

    private RunFilter(String from, String key) {
        this.from = from;
        this.key = key;
    }

    /**
     * @param withStatuses whether to filter by the query's statuses (a count per status does not)
     * @param cursor       resume after this run, or null
     */
    public static RunFilter of(SqlDialect dialect, RunQuery query, boolean withStatuses, RunCursor cursor) {
        Map<String, String> attributes = SearchValues.encode(query.attributes());
        String runs = dialect.table("runs");
        RunFilter f = attributes.isEmpty()
                ? new RunFilter(runs, "")
                : new RunFilter(
                        dialect.table("run_attributes") + " a0 JOIN " + runs + " r ON r.run_id = a0.run_id", "a0.");
        String runId = f.key + "run_id";
        String createdAt = f.key + "created_at";
        int n = 0;
        for (Map.Entry<String, String> a : attributes.entrySet()) {
            String name = f.param(a.getKey());
            String value = f.param(a.getValue());
            if (n == 0) {
                f.conditions.add("a0.name = " + name + " AND a0.value = " + value);
            } else {
                // a lookup by primary key for each run the first attribute finds, in its order: as an EXISTS, the
                // planner may read every row of this attribute's value first (a whole tenant) to join them
                f.conditions.add("(SELECT a" + n + ".value FROM " + dialect.table("run_attributes") + " a" + n
                        + " WHERE a" + n + ".run_id = a0.run_id AND a" + n + ".name = " + name + ") = " + value);
            }
            n++;
        }
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
        if (query.queue() != null) {
            f.conditions.add("queue = " + f.param(query.queue()));
        }
        String prefix = query.idPrefix();
        if (prefix != null && !prefix.isEmpty()) {
            // A literal, case-sensitive prefix: LIKE would read % and _ as wildcards (and SQLite's ignores case).
            // The range lets the primary key find the candidates; the comparison of the first characters decides.
            String p = f.param(prefix);
            f.conditions.add(runId + " >= " + p);
            String upper = dialect.codePointOrder() ? upperBound(prefix) : null;
            if (upper != null) {
                f.conditions.add(runId + " < " + f.param(upper));
            }
            f.conditions.add("substr(" + runId + ", 1, length(" + p + ")) = " + p);
        }
        if (query.createdAfter() != null) {
            f.conditions.add(createdAt + " >= " + f.param(Micros.of(query.createdAfter())));
        }
        if (query.createdBefore() != null) {
            f.conditions.add(createdAt + " < " + f.param(Micros.of(query.createdBefore())));
        }
        if (query.updatedAfter() != null) {
            f.conditions.add("updated_at >= " + f.param(Micros.of(query.updatedAfter())));
        }
        if (query.updatedBefore() != null) {
            f.conditions.add("updated_at < " + f.param(Micros.of(query.updatedBefore())));
        }
        if (cursor != null) {
            f.conditions.add("(" + createdAt + ", " + runId + ") < (" + f.param(cursor.createdAtMicros()) + ", "
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

    /** What to select the runs from: the {@code runs} table, or it joined to the attribute rows a search reads. */
    public String from() {
        return from;
    }

    /** {@link RunRows#COLUMNS} as this filter's {@link #from} names them. */
    public String columns() {
        return key.isEmpty() ? RunRows.COLUMNS : RunRows.COLUMNS_OF_R;
    }

    /** The order of a page, newest first, on the columns the filter's index holds. */
    public String newestFirst() {
        return key + "created_at DESC, " + key + "run_id DESC";
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
