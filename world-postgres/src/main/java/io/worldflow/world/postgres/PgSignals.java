package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.Signals;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/** Signals in the {@code signals} table until an append consumes them. */
final class PgSignals implements Signals {

    private final Database db;
    private final Tables.Signals s;
    private final Tables.Runs runs;
    private final TaskRows taskRows;
    private final InstantSource clock;

    PgSignals(Database db, InstantSource clock) {
        this.db = db;
        this.s = db.tables.signals;
        this.runs = db.tables.runs;
        this.taskRows = new TaskRows(db.tables);
        this.clock = clock;
    }

    /** With the run's row locked: signals to one run get ids in the order they commit. */
    @Override
    public long send(String runId, String name, Payload payload) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        Payload body = payload == null ? Payload.NULL : payload;
        return db.write("signal '" + name + "'", SqlFailures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = RunTarget.require(tx, runs, runId, "signal");
            long id = tx.sql.insertInto(s.table)
                    .columns(s.runId, s.name, s.payloadJson, s.payloadType, s.sentAt)
                    .values(runId, name, body.json(), body.type(), Micros.of(now))
                    .returningResult(s.id)
                    .fetchOne(s.id);
            taskRows.makeDue(tx, runId, target.queue(), target.priority(), now, now);
            return id;
        });
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read("pending signals", SqlFailures.run(runId), sql -> sql
                .select(s.id, s.name, s.payloadJson, s.payloadType, s.sentAt)
                .from(s.table)
                .where(s.runId.eq(runId))
                .orderBy(s.id)
                .fetch(r -> new PendingSignal(r.value1(), runId, r.value2(), new Payload(r.value3(), r.value4()),
                        Micros.toInstant(r.value5()))));
    }
}
