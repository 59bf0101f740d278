package io.worldflow.world.postgres;

import io.worldflow.spi.RunCursor;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import org.jooq.Condition;

import java.util.ArrayList;
import java.util.List;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.val;

/** A {@link RunQuery}'s filters as a jOOQ condition over the {@code runs} table. */
final class RunFilter {

    private RunFilter() {
    }

    /**
     * @param withStatuses whether to filter by the query's statuses (a count per status does not)
     * @param cursor       resume after this run, or null
     * @param utf8         whether the database stores text as UTF-8, whose byte order (the C collation's)
     *                     is code point order: then an id prefix also gets an upper bound for the index range
     */
    static Condition of(Tables.Runs runs, RunQuery query, boolean withStatuses, RunCursor cursor, boolean utf8) {
        List<Condition> conditions = new ArrayList<>();
        if (withStatuses && !query.statuses().isEmpty()) {
            String[] names = query.statuses().stream().sorted().map(RunStatus::name).toArray(String[]::new);
            conditions.add(names.length == 1 ? runs.status.eq(names[0]) : runs.status.eq(any(names)));
        }
        if (query.workflow() != null) {
            conditions.add(runs.workflow.eq(query.workflow()));
        }
        String prefix = query.idPrefix();
        if (prefix != null && !prefix.isEmpty()) {
            // A literal, case-sensitive prefix: LIKE would read % and _ as wildcards. The range lets the
            // primary key (C collation: byte order) find the candidates; starts_with() decides.
            conditions.add(runs.runId.ge(prefix));
            String upper = utf8 ? upperBound(prefix) : null;
            if (upper != null) {
                conditions.add(runs.runId.lt(upper));
            }
            conditions.add(condition("starts_with({0}, {1})", runs.runId, val(prefix)));
        }
        if (query.createdAfter() != null) {
            conditions.add(runs.createdAt.ge(Micros.of(query.createdAfter())));
        }
        if (query.createdBefore() != null) {
            conditions.add(runs.createdAt.lt(Micros.of(query.createdBefore())));
        }
        if (cursor != null) {
            conditions.add(row(runs.createdAt, runs.runId).lt(cursor.createdAtMicros(), cursor.runId()));
        }
        return conditions.isEmpty() ? noCondition() : org.jooq.impl.DSL.and(conditions);
    }

    /**
     * The least string above every string that starts with {@code prefix}, in code point order: the prefix
     * with its last code point raised by one (dropping trailing code points that cannot be raised). Null
     * when there is none.
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
