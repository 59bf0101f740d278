package io.worldflow.world.postgres;

import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.RunCursor;
import io.worldflow.world.jdbc.Micros;
import org.jooq.Condition;
import org.jooq.impl.DSL;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.val;

/** A {@link RunQuery}'s filters as a jOOQ condition over the {@code runs} table. */
final class RunFilter {

    /** The statuses {@code resting} leaves null: a run's work in flight. */
    private static final Set<RunStatus> IN_FLIGHT = EnumSet.of(RunStatus.PENDING, RunStatus.RUNNING);

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
            conditions.add(statusIn(runs, query.statuses()));
        }
        if (query.held() != null) {
            conditions.add(query.held() ? runs.held.isNotNull() : runs.held.isNull());
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
        return conditions.isEmpty() ? noCondition() : DSL.and(conditions);
    }

    /**
     * A resting status (sleeping, waiting, ended) by {@code resting}, which is indexed; pending and running
     * among the runs in flight ({@code resting IS NULL}, an index range too) by {@code status}, which no
     * index holds so that its changes stay HOT.
     */
    private static Condition statusIn(Tables.Runs runs, Collection<RunStatus> statuses) {
        String[] resting = names(statuses, true);
        String[] inFlight = names(statuses, false);
        Condition restingIn = resting.length == 1 ? runs.resting.eq(resting[0]) : runs.resting.eq(any(resting));
        Condition inFlightIn = runs.resting.isNull();
        if (inFlight.length < IN_FLIGHT.size()) {     // all of them: the range alone
            inFlightIn = inFlightIn.and(inFlight.length == 1 ? runs.status.eq(inFlight[0])
                    : runs.status.eq(any(inFlight)));
        }
        if (inFlight.length == 0) {
            return restingIn;
        }
        return resting.length == 0 ? inFlightIn : restingIn.or(inFlightIn);
    }

    private static String[] names(Collection<RunStatus> statuses, boolean resting) {
        return statuses.stream().filter(s -> resting != IN_FLIGHT.contains(s)).sorted().map(RunStatus::name)
                .toArray(String[]::new);
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
