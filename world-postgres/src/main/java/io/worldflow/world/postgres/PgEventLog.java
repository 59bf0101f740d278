package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.NewRun;
import org.jooq.CommonTableExpression;
import org.jooq.Field;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.val;

/** Runs and their event logs in the {@code runs} and {@code events} tables. */
final class PgEventLog implements EventLog {

    private static final Field<String> CREATED_ID = field(name("created", "run_id"), String.class);

    private final Database db;
    private final Tables tables;
    private final EventCodec codec;
    private final InstantSource clock;
    private final RunRows rows;
    private final TaskRows taskRows;
    private final AppendBatch batch;

    PgEventLog(Database db, EventCodec codec, InstantSource clock) {
        this.db = db;
        this.tables = db.tables;
        this.codec = codec;
        this.clock = clock;
        this.rows = new RunRows(tables, codec);
        this.taskRows = new TaskRows(tables);
        this.batch = new AppendBatch(codec, tables, taskRows);
    }

    /**
     * One statement, so one round trip and one commit: the run's row (unless the id exists), its first event,
     * its first turn and the NOTIFY that announces it, as data-modifying parts of one {@code WITH}.
     */
    @Override
    public CreateResult create(NewRun run) {
        Objects.requireNonNull(run, "run");
        WorkflowStarted started = run.startedEvent();
        String json = codec.encode(started);
        Tables.Runs r = tables.runs;
        Tables.Events e = tables.events;
        Tables.Tasks t = tables.tasks;
        long createdAt = Micros.of(run.createdAt());
        long availableAt = Micros.of(run.availableAt());
        return db.autocommit("create", SqlFailures.run(run.runId()), tx -> {
            CommonTableExpression<?> created = name("created").as(tx.sql.insertInto(r.table)
                    .columns(r.runId, r.workflow, r.status, r.inputJson, r.inputType, r.createdAt, r.updatedAt,
                            r.availableAt, r.deadline, r.queue, r.priority, r.logLength)
                    .values(run.runId(), run.workflow(), RunStatus.PENDING.name(), run.input().json(),
                            run.input().type(), createdAt, createdAt, availableAt, Micros.orNull(run.deadline()),
                            run.queue(), run.priority(), 1L)
                    .onConflictDoNothing()
                    .returningResult(r.runId));
            CommonTableExpression<?> logged = name("logged").as(tx.sql.insertInto(e.table)
                    .columns(e.runId, e.seq, e.type, e.at, e.json)
                    .select(select(CREATED_ID, inline(0L), val(started.type()), val(Micros.of(started.at())), val(json))
                            .from(created))
                    .returningResult(e.runId));
            CommonTableExpression<?> queued = name("queued").as(tx.sql.insertInto(t.table)
                    .columns(t.runId, t.queue, t.priority, t.availableAt, t.deliveries)
                    .select(select(CREATED_ID, val(run.queue()), val(run.priority()), val(availableAt), inline(0))
                            .from(created))
                    .returningResult(t.runId));
            boolean isNew = tx.sql.with(created).with(logged).with(queued)
                    .select(db.notify(run.availableAt()))
                    .from(created)
                    .fetch().isNotEmpty();
            if (isNew) {
                tx.wakeAt(Micros.truncate(run.availableAt()));
                return new CreateResult(createdInfo(run), true);
            }
            return new CreateResult(rows.find(tx.sql, run.runId()).orElseThrow(), false);
        });
    }

    @Override
    public List<AppendResult> append(List<Append> appends) {
        if (appends.isEmpty()) {
            return List.of();
        }
        List<AppendBatch.Encoded> encoded = batch.encode(appends);
        String first = SqlFailures.run(appends.getFirst().runId());
        String subject = appends.size() == 1 ? first : appends.size() + " runs (first " + first + ")";
        return db.write("append", subject, tx -> batch.apply(tx, encoded, clock.instant()));
    }

    @Override
    public List<Event> read(String runId, long fromSeq) {
        Objects.requireNonNull(runId, "runId");
        Tables.Events e = tables.events;
        List<String> json = db.read("read", SqlFailures.run(runId), sql -> {
            List<String> out = sql.select(e.json).from(e.table)
                    .where(e.runId.eq(runId).and(e.seq.ge(Math.max(0, fromSeq))))
                    .orderBy(e.seq)
                    .fetch(e.json);
            if (out.isEmpty() && !sql.fetchExists(selectOne().from(tables.runs.table)
                    .where(tables.runs.runId.eq(runId)))) {
                return null;
            }
            return out;
        });
        if (json == null) {
            throw new RunNotFoundException(runId);
        }
        List<Event> events = new ArrayList<>(json.size());
        for (String j : json) {
            events.add(codec.decode(j));
        }
        return events;
    }

    @Override
    public void requestCancel(String runId, String reason) {
        Objects.requireNonNull(runId, "runId");
        Tables.Runs r = tables.runs;
        db.write("cancel", SqlFailures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = RunTarget.require(tx, r, runId, "cancel");
            if (!target.cancelRequested()) {
                tx.sql.update(r.table)
                        .set(r.cancelRequested, true)
                        .set(r.cancelReason, reason)
                        .set(r.cancelRequestedAt, Micros.of(now))
                        .set(r.updatedAt, Micros.of(now))
                        .where(r.runId.eq(runId))
                        .execute();
            }
            taskRows.makeDue(tx, runId, target.queue(), target.priority(), now, now);
            return null;
        });
    }

    /** Records why the run is held. Unknown run: {@link RunNotFoundException}; a finished run is left as it is. */
    @Override
    public void hold(String runId, ErrorInfo reason) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
        String json = codec.encodeError(reason);
        Tables.Runs r = tables.runs;
        db.write("hold", SqlFailures.run(runId), tx -> {
            Optional<RunTarget> target = RunTarget.lock(tx, r, runId);
            if (target.isEmpty()) {
                throw new RunNotFoundException(runId);
            }
            if (!target.get().status().isTerminal()) {
                tx.sql.update(r.table)
                        .set(r.held, json)
                        .set(r.updatedAt, Micros.of(clock.instant()))
                        .where(r.runId.eq(runId))
                        .execute();
            }
            return null;
        });
    }

    /** The projection of a run just created, as the row holds it (instants to the microsecond). */
    private static RunInfo createdInfo(NewRun run) {
        Instant createdAt = Micros.truncate(run.createdAt());
        return new RunInfo(run.runId(), run.workflow(), RunStatus.PENDING, run.input(), null, null, createdAt,
                createdAt, Micros.truncate(run.availableAt()), Micros.truncate(run.deadline()), run.queue(),
                run.priority(), 1, null, null);
    }
}
