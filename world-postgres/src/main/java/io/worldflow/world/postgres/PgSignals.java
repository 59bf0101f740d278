package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SignalKey;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.Signals;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;

import java.sql.ResultSet;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;

/** Signals in the {@code signals} table until an append consumes them. */
final class PgSignals implements Signals {

    private final Database db;
    private final RunTarget.Locker locker;
    private final TaskRows taskRows;
    private final InstantSource clock;
    private final Sql insert;
    private final Sql pending;

    PgSignals(Database db, InstantSource clock) {
        this.db = db;
        this.locker = new RunTarget.Locker(db.tables);
        this.taskRows = new TaskRows(db.tables, db.channel());
        this.clock = clock;
        Tables.Signals s = db.tables.signals;
        this.insert = Sql.of(insertInto(s.table)
                .columns(s.runId, s.name, s.payloadJson, s.payloadType, s.sentAt)
                .values(param("runId", String.class), param("name", String.class), param("json", String.class),
                        param("type", String.class), param("sentAt", Long.class))
                .returningResult(s.id));
        this.pending = Sql.of(select(s.id, s.name, s.payloadJson, s.payloadType, s.sentAt)
                .from(s.table)
                .where(s.runId.eq(param("runId", String.class)))
                .orderBy(s.id));
    }

    /**
     * With the run's row locked: signals to one run get ids in the order they commit, and a key is checked
     * and recorded without a race.
     */
    @Override
    public SignalSent send(String runId, String name, Payload payload, String key) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        SignalKey.check(key);
        Payload body = payload == null ? Payload.NULL : payload;
        Tables.SignalKeys k = db.tables.signalKeys;
        return db.write("signal '" + name + "'", Failures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = locker.require(tx, runId, "signal");
            if (key != null) {
                Long first = tx.dsl().select(k.signalId).from(k.table)
                        .where(k.runId.eq(runId).and(k.key.eq(key))).fetchOne(k.signalId);
                if (first != null) {
                    return new SignalSent(first, true);
                }
            }
            long id;
            try (Sql.Call call = tx.call(insert).set("runId", runId).set("name", name).set("json", body.json())
                    .set("type", body.type()).set("sentAt", Micros.of(now));
                 ResultSet rs = call.query()) {
                rs.next();
                id = rs.getLong(1);
            }
            if (key != null) {
                tx.dsl().insertInto(k.table).columns(k.runId, k.key, k.signalId).values(runId, key, id).execute();
            }
            taskRows.makeDue(tx, runId, target.queue(), target.priority(), now, now);
            return new SignalSent(id, false);
        });
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read("pending signals", Failures.run(runId), tx -> {
            List<PendingSignal> out = new ArrayList<>();
            try (Sql.Call call = tx.call(pending).set("runId", runId); ResultSet rs = call.query()) {
                while (rs.next()) {
                    out.add(new PendingSignal(rs.getLong(1), runId, rs.getString(2),
                            new Payload(rs.getString(3), rs.getString(4)), RunRows.instant(rs, 5)));
                }
            }
            return out;
        });
    }
}
