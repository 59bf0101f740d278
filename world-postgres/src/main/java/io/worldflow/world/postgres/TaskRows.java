package io.worldflow.world.postgres;

import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Tx;
import io.worldflow.world.jdbc.Sql;
import org.jooq.Field;
import org.jooq.Table;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.update;
import static org.jooq.impl.DSL.deleteFrom;
import static org.jooq.impl.DSL.when;
import static org.jooq.impl.DSL.with;

/**
 * Changes to the {@code tasks} table that several facets share, always inside a write. A run has at most
 * one row: its pending (or leased) turn. Each statement that makes a turn due announces it itself.
 */
final class TaskRows {

    /** A turn to end: the lease that holds it and when the run's next turn is due (null: none). */
    record End(String runId, String token, Instant wakeAt) {
        static End of(Lease lease, Instant wakeAt) {
            return new End(lease.runId(), lease.token(), wakeAt);
        }
    }

    private final String channel;
    private final Sql makeDue;
    private final Sql removeEnded;
    private final Sql moveEnded;

    TaskRows(Tables tables, String channel) {
        this.channel = channel;
        Tables.Tasks t = tables.tasks;
        Field<Long> now = param("now", Long.class);

        // A new row; or an unleased row keeps the earlier due time; a leased row records the request for when
        // its lease ends (and, when the lease has lapsed, is also due at once).
        Field<Long> dueAt = field(name("due", "available_at"), Long.class);
        Field<Boolean> dueFree = field(name("due", "free"), Boolean.class);
        this.makeDue = Jooq.sql(with(name("due").as(insertInto(t.table)
                        .columns(t.runId, t.queue, t.priority, t.availableAt, t.deliveries)
                        .values(param("runId", String.class), param("queue", String.class),
                                param("priority", Integer.class), param("at", Long.class), inline(0))
                        .onConflict(t.runId).doUpdate()
                        .set(t.requestedAt, when(t.leaseToken.isNull(), castNull(Long.class))
                                .otherwise(least(t.requestedAt, excluded(t.availableAt))))
                        .set(t.availableAt, when(t.leaseToken.isNull().or(t.leaseExpires.le(now)),
                                least(t.availableAt, excluded(t.availableAt))).otherwise(t.availableAt))
                        .returningResult(t.availableAt, field(t.leaseToken.isNull().or(t.leaseExpires.le(now))).as("free"))))
                .select(dueAt, dueFree, when(condition(dueFree), announce(dueAt)))
                .from(name("due")));

        Table<?> ends = table("unnest({0}, {1}, {2})", param("runIds", String[].class), param("tokens", String[].class),
                param("wakes", Long[].class)).as("i", "run_id", "token", "wake_at");
        Field<String> endRun = field(name("i", "run_id"), String.class);
        Field<String> endToken = field(name("i", "token"), String.class);
        Field<Long> endWake = field(name("i", "wake_at"), Long.class);
        // nothing next and nothing requested meanwhile: the turn is gone
        this.removeEnded = Jooq.sql(deleteFrom(t.table).using(ends)
                .where(t.runId.eq(endRun).and(t.leaseToken.eq(endToken))
                        .and(endWake.isNull()).and(t.requestedAt.isNull())));
        // else due at the earlier of the wake time and the turn requested meanwhile
        Field<Long> moved = field(name("moved", "available_at"), Long.class);
        Field<Long> earliest = field(name("m", "earliest"), Long.class);
        this.moveEnded = Jooq.sql(with(name("moved").as(update(t.table)
                        .set(t.availableAt, coalesce(least(t.requestedAt, endWake), t.availableAt))
                        .set(t.requestedAt, castNull(Long.class))
                        .set(t.leaseToken, castNull(String.class))
                        .set(t.leaseOwner, castNull(String.class))
                        .set(t.leaseExpires, castNull(Long.class))
                        .set(t.deliveries, inline(0))
                        .from(ends)
                        .where(t.runId.eq(endRun).and(t.leaseToken.eq(endToken)))
                        .returningResult(t.availableAt)))
                .select(earliest, when(earliest.isNotNull(), announce(earliest)))
                .from(select(min(moved).as("earliest")).from(name("moved")).asTable("m")));
    }

    /** {@code pg_notify(:channel, <micros as text>)}. */
    static Field<Object> announce(Field<Long> micros) {
        return function("pg_notify", Object.class, param("channel", String.class), micros.cast(String.class));
    }

    /** Makes an existing, unfinished run due at {@code at}. The caller holds the run's row lock. */
    void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        try (Sql.Call call = tx.call(makeDue).set("runId", runId).set("queue", queue).set("priority", priority)
                .set("at", Micros.of(at)).set("now", Micros.of(now)).set("channel", channel);
             ResultSet rs = call.query()) {
            if (rs.next() && rs.getBoolean(2)) {
                tx.announced(Micros.toInstant(rs.getLong(1)));
            }
            // still leased: the holder's turn end (or the lease's expiry) makes it due
        }
    }

    /**
     * Ends the turns held by these leases, set-wise; a stale lease changes nothing. A turn with nothing next
     * and nothing requested meanwhile is removed; the others are due at the earlier of their wake time and
     * the turn requested meanwhile.
     */
    void complete(Tx tx, Collection<End> ends) throws SQLException {
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
        int removed = 0;
        if (anyWithoutWake) {
            try (Sql.Call call = tx.call(removeEnded).set("runIds", runIds).set("tokens", tokens).set("wakes", wakes)) {
                removed = call.update();
            }
        }
        if (removed == unique.size()) {
            return;
        }
        try (Sql.Call call = tx.call(moveEnded).set("runIds", runIds).set("tokens", tokens).set("wakes", wakes)
                .set("channel", channel);
             ResultSet rs = call.query()) {
            if (rs.next()) {
                long earliest = rs.getLong(1);
                if (!rs.wasNull()) {
                    tx.announced(Micros.toInstant(earliest));
                }
            }
        }
    }
}
