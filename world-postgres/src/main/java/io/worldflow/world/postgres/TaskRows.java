package io.worldflow.world.postgres;

import io.worldflow.spi.Lease;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.Table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

/**
 * Changes to the {@code tasks} table that several facets share, always inside a write. A run has at most
 * one row: its pending (or leased) turn.
 */
final class TaskRows {

    /** A turn to end: the lease that holds it and when the run's next turn is due (null: none). */
    record End(String runId, String token, Instant wakeAt) {
        static End of(Lease lease, Instant wakeAt) {
            return new End(lease.runId(), lease.token(), wakeAt);
        }
    }

    private static final Field<String> END_RUN = field(name("i", "run_id"), String.class);
    private static final Field<String> END_TOKEN = field(name("i", "token"), String.class);
    private static final Field<Long> END_WAKE = field(name("i", "wake_at"), Long.class);

    private final Tables.Tasks t;

    TaskRows(Tables tables) {
        this.t = tables.tasks;
    }

    /**
     * Makes an existing, unfinished run due at {@code at}: a new row; or an unleased row keeps the earlier
     * due time; a leased row records the request for when its lease ends (and, when the lease has lapsed,
     * is also due at once). The caller holds the run's row lock.
     */
    void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) {
        long nowMicros = Micros.of(now);
        Field<Boolean> free = field(t.leaseToken.isNull().or(t.leaseExpires.le(nowMicros)));
        Record2<Long, Boolean> r = tx.sql.insertInto(t.table)
                .columns(t.runId, t.queue, t.priority, t.availableAt, t.deliveries)
                .values(runId, queue, priority, Micros.of(at), 0)
                .onConflict(t.runId).doUpdate()
                .set(t.requestedAt, when(t.leaseToken.isNull(), castNull(Long.class))
                        .otherwise(least(t.requestedAt, excluded(t.availableAt))))
                .set(t.availableAt, when(t.leaseToken.isNull().or(t.leaseExpires.le(nowMicros)),
                        least(t.availableAt, excluded(t.availableAt))).otherwise(t.availableAt))
                .returningResult(t.availableAt, free)
                .fetchOne();
        if (r != null && Boolean.TRUE.equals(r.value2())) {
            tx.wakeAt(Micros.toInstant(r.value1()));
        }
        // still leased: the holder's turn end (or the lease's expiry) makes it due
    }

    /**
     * Ends the turns held by these leases, set-wise; a stale lease changes nothing. A turn with nothing next
     * and nothing requested meanwhile is removed; the others are due at the earlier of their wake time and
     * the turn requested meanwhile.
     */
    void complete(Tx tx, Collection<End> ends) {
        List<End> unique = new ArrayList<>(ends.size());
        Set<String> seen = new HashSet<>();
        boolean anyWithoutWake = false;
        for (End e : ends) {
            if (seen.add(e.runId() + '\u0000' + e.token())) {
                unique.add(e);
                anyWithoutWake |= e.wakeAt() == null;
            }
        }
        if (unique.isEmpty()) {
            return;
        }
        String[] runIds = new String[unique.size()];
        String[] tokens = new String[unique.size()];
        Long[] wakes = new Long[unique.size()];
        for (int i = 0; i < unique.size(); i++) {
            runIds[i] = unique.get(i).runId();
            tokens[i] = unique.get(i).token();
            wakes[i] = Micros.orNull(unique.get(i).wakeAt());
        }
        Table<?> input = table("unnest({0}, {1}, {2})", val(runIds), val(tokens), val(wakes))
                .as("i", "run_id", "token", "wake_at");
        int removed = 0;
        if (anyWithoutWake) {
            removed = tx.sql.deleteFrom(t.table).using(input)
                    .where(t.runId.eq(END_RUN).and(t.leaseToken.eq(END_TOKEN))
                            .and(END_WAKE.isNull()).and(t.requestedAt.isNull()))
                    .execute();
        }
        if (removed == unique.size()) {
            return;
        }
        Long next = tx.sql.with(name("moved").as(tx.sql.update(t.table)
                        .set(t.availableAt, coalesce(least(t.requestedAt, END_WAKE), t.availableAt))
                        .set(t.requestedAt, castNull(Long.class))
                        .set(t.leaseToken, castNull(String.class))
                        .set(t.leaseOwner, castNull(String.class))
                        .set(t.leaseExpires, castNull(Long.class))
                        .set(t.deliveries, 0)
                        .from(input)
                        .where(t.runId.eq(END_RUN).and(t.leaseToken.eq(END_TOKEN)))
                        .returningResult(t.availableAt)))
                .select(min(field(name("moved", "available_at"), Long.class)))
                .from(name("moved"))
                .fetchOne(0, Long.class);
        if (next != null) {
            tx.wakeAt(Micros.toInstant(next));
        }
    }

    /** Finished runs have no turns. */
    void delete(Tx tx, Collection<String> runIds) {
        if (!runIds.isEmpty()) {
            tx.sql.deleteFrom(t.table).where(t.runId.eq(any(runIds.toArray(String[]::new)))).execute();
        }
    }
}
