package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;
import org.jooq.CommonTableExpression;
import org.jooq.Field;
import org.jooq.SelectField;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.with;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class PgEventLog implements EventLog {

    private final Database db;
    private final Tables tables;
    private final EventCodec codec;
    private final InstantSource clock;
    private final RunRows rows;
    private final RunTarget.Locker locker;
    private final TaskRows taskRows;
    private final AppendStatement oneStatement;
    private final Sql create;
    private final Sql createLeased;
    private final Sql read;
    private final Sql exists;
    private final Sql loadRuns;
    private final Sql loadEvents;

    PgEventLog(Database db, EventCodec codec, InstantSource clock) {
        this.db = db;
        this.tables = db.tables;
        this.codec = codec;
        this.clock = clock;
        this.rows = new RunRows(tables, codec);
        this.locker = new RunTarget.Locker(tables);
        this.taskRows = new TaskRows(tables, db.channel());
        this.oneStatement = new AppendStatement(tables, db.channel(), db.endChannel());
        this.create = createStatement(tables, false);
        this.createLeased = createStatement(tables, true);
        Tables.Runs r = tables.runs;
        Tables.Log l = tables.log;
        Field<Long> fromSeq = param("fromSeq", Long.class);
        // the first record where the runs row holds it (read from seq 0 only), then the log's rows from the one that
        // holds fromSeq: the last one starting at or before it
        Field<Long> firstRow = field(select(coalesce(max(l.seq), inline(0L))).from(l.table)
                .where(l.runId.eq(param("runId", String.class)).and(l.seq.le(fromSeq))));
        this.read = Sql.of(select(inline(0L), r.started).from(r.table)
                .where(r.runId.eq(param("runId", String.class)).and(r.started.isNotNull()).and(fromSeq.eq(inline(0L))))
                .unionAll(select(l.seq, l.events).from(l.table)
                        .where(l.runId.eq(param("runId", String.class)).and(l.seq.ge(firstRow))))
                .orderBy(inline(1)));
        this.exists = Sql.of(selectOne().from(r.table)
                .where(r.runId.eq(param("runId", String.class))));
        List<SelectField<?>> withStarted = new ArrayList<>(List.of(rows.columns));
        withStarted.add(r.started);
        this.loadRuns = Sql.of(select(withStarted).from(r.table)
                .where(r.runId.eq(any(param("ids", String[].class)))));
        this.loadEvents = Sql.of(select(l.runId, l.seq, l.events).from(l.table)
                .where(l.runId.eq(any(param("ids", String[].class))))
                .orderBy(l.runId, l.seq));
    }

    /**
     * One statement, so one round trip and one commit: the run's row with its first event (unless the id exists),
     * its first turn and the NOTIFY that announces it, as data-modifying parts of one {@code WITH}. The row is
     * inserted where no run has the id, not with {@code ON CONFLICT}, whose speculative insertion writes a
     * second WAL record per run; two creates of one id at the same moment meet at the primary key instead
     * ({@link #create}). With {@code leased}, the turn is inserted leased to {@code :owner} until {@code :expires}
     * and nobody is notified: the statement returns the lease's token.
     */
    private static Sql createStatement(Tables tables, boolean leased) {
        Tables.Runs r = tables.runs;
        Tables.Tasks t = tables.tasks;
        Field<String> createdId = field(name("created", "run_id"), String.class);
        Field<Long> createdAt = param("createdAt", Long.class);
        Field<Long> availableAt = param("availableAt", Long.class);
        Field<String> queue = param("queue", String.class);
        Field<Integer> priority = param("priority", Integer.class);
        Field<String> runId = param("runId", String.class);
        CommonTableExpression<?> created = name("created").as(insertInto(r.table)
                .columns(r.runId, r.workflow, r.status, r.inputJson, r.inputType, r.createdAt, r.updatedAt,
                        r.availableAt, r.deadline, r.queue, r.priority, r.logLength, r.started)
                .select(select(runId, param("workflow", String.class),
                        inline(RunStatus.PENDING.name()), param("inputJson", String.class),
                        param("inputType", String.class), createdAt, createdAt, availableAt,
                        param("deadline", Long.class), queue, priority, inline(1L), param("events", String.class))
                        .whereNotExists(selectOne().from(r.table).where(r.runId.eq(runId))))
                .returningResult(r.runId));
        if (leased) {
            CommonTableExpression<?> queued = name("queued").as(insertInto(t.table)
                    .columns(t.runId, t.queue, t.priority, t.availableAt, t.leaseToken, t.leaseOwner, t.leaseExpires,
                            t.deliveries)
                    .select(select(createdId, queue, priority, availableAt, PgTaskQueue.LEASE_TOKEN,
                            param("owner", String.class), param("expires", Long.class), inline(1)).from(created))
                    .returningResult(t.leaseToken));
            return Sql.of(with(created).with(queued).select(field(name("queued", "lease_token"), String.class))
                    .from(name("queued")));
        }
        CommonTableExpression<?> queued = name("queued").as(insertInto(t.table)
                .columns(t.runId, t.queue, t.priority, t.availableAt, t.deliveries)
                .select(select(createdId, queue, priority, availableAt, inline(0)).from(created))
                .returningResult(t.runId));
        return Sql.of(with(created).with(queued)
                .select(Database.announce())
                .from(created));
    }

    @Override
    public CreateResult create(NewRun run) {
        return create(run, null, null);
    }

    /**
     * Creates the run; when {@code leaseTo} is not null and the run is new and due by now, its first turn is
     * leased to that worker for {@code leaseFor} in the same statement, which then notifies nobody.
     */
    CreateResult create(NewRun run, String leaseTo, Duration leaseFor) {
        Objects.requireNonNull(run, "run");
        WorkflowStarted started = run.startedEvent();
        String events = codec.encodeAll(List.of(started));
        Instant now = clock.instant();
        boolean leased = leaseTo != null && !run.availableAt().isAfter(now);
        Instant expires = leased ? Micros.truncate(now.plus(leaseFor)) : null;
        return db.autocommit("create", Failures.run(run.runId()), tx -> {
            String token = null;
            boolean isNew;
            try (Sql.Call call = tx.call(leased ? createLeased : create)
                    .set("runId", run.runId()).set("workflow", run.workflow())
                    .set("inputJson", run.input().json()).set("inputType", run.input().type())
                    .set("createdAt", Micros.of(run.createdAt())).set("availableAt", Micros.of(run.availableAt()))
                    .set("deadline", Micros.orNull(run.deadline())).set("queue", run.queue())
                    .set("priority", run.priority())
                    .set("events", events);
                 ResultSet rs = (leased ? call.set("owner", leaseTo).set("expires", Micros.of(expires))
                         : call.set("channel", db.channel()).set("due", Database.announcement(run.availableAt())))
                         .query()) {
                isNew = rs.next();
                if (isNew && leased) {
                    token = rs.getString(1);
                }
            } catch (SQLException e) {
                if (!SqlFailures.isDuplicateKey(e, tables.runs.table.getName())) {
                    throw e;
                }
                isNew = false;      // created by another transaction since this statement began
            }
            if (!isNew) {
                return new CreateResult(rows.find(tx, run.runId()).orElseThrow(), false);
            }
            if (leased) {
                return new CreateResult(createdInfo(run), true, new Lease(run.runId(), token, run.queue(), expires, 1));
            }
            tx.announced(Micros.truncate(run.availableAt()));
            return new CreateResult(createdInfo(run), true);
        });
    }

    @Override
    public List<AppendResult> append(List<Append> appends) {
        if (appends.isEmpty()) {
            return List.of();
        }
        List<EncodedAppend> encoded = EncodedAppend.of(codec, appends);
        String first = Failures.run(appends.getFirst().runId());
        String subject = appends.size() == 1 ? first : appends.size() + " runs (first " + first + ")";
        if (AppendStatement.eachRunOnce(encoded)) {
            return db.autocommit("append", subject, tx -> oneStatement.apply(tx, encoded, clock.instant()));
        }
        // a run's pipelined appends: a statement per round, the rounds in one transaction
        return db.write("append", subject, tx -> oneStatement.apply(tx, encoded, clock.instant()));
    }

    @Override
    public List<Event> read(String runId, long fromSeq) {
        Objects.requireNonNull(runId, "runId");
        List<LogRow> json = db.read("read", Failures.run(runId), tx -> {
            List<LogRow> out = new ArrayList<>();
            try (Sql.Call call = tx.call(read).set("runId", runId).set("fromSeq", Math.max(0, fromSeq));
                 ResultSet rs = call.query()) {
                while (rs.next()) {
                    out.add(new LogRow(rs.getLong(1), rs.getString(2)));
                }
            }
            if (out.isEmpty()) {
                try (Sql.Call call = tx.call(exists).set("runId", runId); ResultSet rs = call.query()) {
                    if (!rs.next()) {
                        return null;
                    }
                }
            }
            return out;
        });
        if (json == null) {
            throw new RunNotFoundException(runId);
        }
        List<Event> events = new ArrayList<>();
        for (Event e : decode(codec, runId, null, json)) {
            if (e.seq() >= fromSeq) {
                events.add(e);
            }
        }
        return events;
    }

    /** Runs with their whole logs: two statements in one read-only transaction, however many runs. */
    Map<String, LoadedRun> load(Collection<String> runIds) {
        String[] ids = new LinkedHashSet<>(runIds).toArray(String[]::new);
        if (ids.length == 0) {
            return Map.of();
        }
        Map<String, RunInfo> infos = new HashMap<>();
        Map<String, String> started = new HashMap<>();
        Map<String, List<LogRow>> logs = new HashMap<>();
        db.read("load", ids.length + " runs", tx -> {
            try (Sql.Call call = tx.call(loadRuns).set("ids", ids); ResultSet rs = call.query()) {
                while (rs.next()) {
                    RunInfo info = rows.map(rs);
                    infos.put(info.runId(), info);
                    started.put(info.runId(), rs.getString(rows.columns.length + 1));
                }
            }
            try (Sql.Call call = tx.call(loadEvents).set("ids", ids); ResultSet rs = call.query()) {
                while (rs.next()) {
                    logs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new LogRow(rs.getLong(2), rs.getString(3)));
                }
            }
            return null;
        });
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        for (String id : ids) {
            RunInfo info = infos.get(id);
            if (info != null) {
                out.put(id, new LoadedRun(info, decode(codec, id, started.get(id), logs.getOrDefault(id, List.of()))));
            }
        }
        return out;
    }

    @Override
    public void requestCancel(String runId, String reason) {
        Objects.requireNonNull(runId, "runId");
        Tables.Runs r = tables.runs;
        db.write("cancel", Failures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = locker.require(tx, runId, "cancel");
            if (!target.cancelRequested()) {
                tx.dsl().update(r.table)
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

    @Override
    public void reopen(WorkflowRetried retried) {
        Objects.requireNonNull(retried, "retried");
        String runId = retried.runId();
        String events = codec.encodeAll(List.of(retried));
        Tables.Runs r = tables.runs;
        Tables.Log l = tables.log;
        db.write("reopen", Failures.run(runId), tx -> {
            RunTarget target = locker.lock(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (target.status() != RunStatus.FAILED) {
                throw RunStateException.notFailed(runId, target.status());
            }
            Long length = tx.dsl().select(r.logLength).from(r.table).where(r.runId.eq(runId)).fetchOne(r.logLength);
            if (length == null || length != retried.seq()) {
                throw RunStateException.logMoved(runId, length, retried.seq());
            }
            tx.dsl().insertInto(l.table).columns(l.runId, l.seq, l.lastSeq, l.events)
                    .values(runId, retried.seq(), retried.seq(), events)
                    .execute();
            tx.dsl().update(r.table)
                    .set(r.status, RunStatus.PENDING.name())
                    .set(r.logLength, retried.seq() + 1)
                    .set(r.updatedAt, Micros.of(retried.at()))
                    .setNull(r.outputJson).setNull(r.outputType).setNull(r.error).setNull(r.held).setNull(r.heldSince)
                    .where(r.runId.eq(runId))
                    .execute();
            taskRows.makeDue(tx, runId, target.queue(), target.priority(), retried.at(), clock.instant());
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
        db.write("hold", Failures.run(runId), tx -> {
            Optional<RunTarget> target = locker.lock(tx, runId);
            if (target.isEmpty()) {
                throw new RunNotFoundException(runId);
            }
            if (!target.get().status().isTerminal()) {
                long now = Micros.of(clock.instant());
                tx.dsl().update(r.table)
                        .set(r.held, json)
                        .set(r.heldSince, coalesce(r.heldSince, val(now)))   // a hold keeps the time it began
                        .set(r.updatedAt, now)
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
                run.priority(), 1, null, null, null);
    }

    /**
     * A run's events: its first record as its runs row holds it ({@link Tables.Runs#started}, or null), then its
     * log's rows in order.
     */
    static List<Event> decode(EventCodec codec, String runId, String started, List<LogRow> rows) {
        List<Event> events = new ArrayList<>();
        if (started != null) {
            events.addAll(codec.decodeAll(runId, 0, started));
        }
        for (LogRow row : rows) {
            events.addAll(codec.decodeAll(runId, row.seq(), row.events()));
        }
        return events;
    }

    /** A stored row of the log: the events of one append, the first numbered {@code seq}. */
    record LogRow(long seq, String events) {
    }
}
