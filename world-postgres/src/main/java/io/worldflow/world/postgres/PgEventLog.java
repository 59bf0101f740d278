package io.worldflow.world.postgres;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcEventLog;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;

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
import java.util.List;
import java.util.Map;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class PgEventLog extends JdbcEventLog {

    private final Database database;
    private final AppendStatement oneStatement;
    private final Sql create;
    private final Sql createLeased;
    private final Sql loadRuns;
    private final Sql loadEvents;

    PgEventLog(Database db, EventCodec codec, InstantSource clock) {
        super(db, codec, clock, "started");
        this.database = db;
        this.oneStatement = new AppendStatement(db.dialect(), db.channel(), db.endChannel());
        SqlDialect d = db.dialect();
        this.create = createStatement(d, false);
        this.createLeased = createStatement(d, true);
        this.loadRuns = Sql.of(d.tables(
                "SELECT " + RunRows.COLUMNS + ", started FROM {runs}" + " WHERE run_id = ANY(CAST(:ids AS text[]))"));
        this.loadEvents = Sql.of(d.tables("SELECT run_id, seq, events FROM {event_log}"
                + " WHERE run_id = ANY(CAST(:ids AS text[])) ORDER BY run_id, seq"));
    }

    /**
     * One statement, so one round trip and one commit: the run's row with its first event (unless the id exists),
     * its first turn and the NOTIFY that announces it, as data-modifying parts of one {@code WITH}. The row is
     * inserted where no run has the id, not with {@code ON CONFLICT}, whose speculative insertion writes a
     * second WAL record per run; two creates of one id at the same moment meet at the primary key instead
     * ({@link #create}). With {@code leased}, the turn is inserted leased to {@code :owner} until {@code :expires}
     * and nobody is notified: the statement returns the lease's token.
     */
    private static Sql createStatement(SqlDialect d, boolean leased) {
        String created = """
                WITH created AS (
                    INSERT INTO {runs} (run_id, workflow, status, input_json, input_type, created_at, updated_at,
                                        available_at, deadline, queue, priority, log_length, started)
                    SELECT :runId, :workflow, 'PENDING', :inputJson, CAST(:inputType AS text), :createdAt, :createdAt,
                           :availableAt, CAST(:deadline AS bigint), :queue, :priority, 1, :events
                    WHERE NOT EXISTS (SELECT 1 FROM {runs} WHERE run_id = :runId)
                    RETURNING run_id),
                """;
        return Sql.of(d.tables(created + (leased ? """
                queued AS (
                    INSERT INTO {tasks} (run_id, queue, priority, available_at, lease_token, lease_owner, lease_expires,
                                         deliveries)
                    SELECT run_id, :queue, :priority, :availableAt, %s, :owner, :expires, 1 FROM created
                    RETURNING lease_token)
                SELECT lease_token FROM queued""".formatted(PgTaskQueue.LEASE_TOKEN) : """
                queued AS (
                    INSERT INTO {tasks} (run_id, queue, priority, available_at, deliveries)
                    SELECT run_id, :queue, :priority, :availableAt, 0 FROM created
                    RETURNING run_id)
                SELECT pg_notify(:channel, :due) FROM created""")));
    }

    /** In one statement, which notifies nobody when it leases the turn. */
    @Override
    protected CreateResult create(NewRun run, String events, String leaseTo, Duration leaseFor) {
        Instant now = clock.instant();
        boolean leased = leaseTo != null && !run.availableAt().isAfter(now);
        Instant expires = leased ? Micros.truncate(now.plus(leaseFor)) : null;
        return database.autocommit("create", Failures.run(run.runId()), tx -> {
            String token = null;
            boolean isNew;
            try (Sql.Call call = bindRun(tx.call(leased ? createLeased : create), run)
                            .set("events", events);
                    ResultSet rs = (leased
                                    ? call.set("owner", leaseTo).set("expires", Micros.of(expires))
                                    : call.set("channel", database.channel())
                                            .set("due", Database.announcement(run.availableAt())))
                            .query()) {
                isNew = rs.next();
                if (isNew && leased) {
                    token = rs.getString(1);
                }
            } catch (SQLException e) {
                if (!SqlFailures.isDuplicateKey(e, database.tableName("runs"))) {
                    throw e;
                }
                isNew = false; // created by another transaction since this statement began
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
    protected List<AppendResult> append(List<EncodedAppend> encoded, String subject) {
        if (AppendStatement.eachRunOnce(encoded)) {
            return database.autocommit("append", subject, tx -> oneStatement.apply(tx, encoded, clock.instant()));
        }
        // a run's pipelined appends: a statement per round, the rounds in one transaction
        return db.write("append", subject, tx -> oneStatement.apply(tx, encoded, clock.instant()));
    }

    /** Two statements in one read-only transaction, however many runs. */
    @Override
    public Map<String, LoadedRun> load(Collection<String> runIds) {
        String[] ids = new LinkedHashSet<>(runIds).toArray(String[]::new);
        if (ids.length == 0) {
            return Map.of();
        }
        Map<String, RunInfo> infos = new HashMap<>();
        Map<String, String> started = new HashMap<>();
        Map<String, List<LogRow>> logs = new HashMap<>();
        db.read("load", ids.length + " runs", tx -> {
            try (Sql.Call call = tx.call(loadRuns).set("ids", ids);
                    ResultSet rs = call.query()) {
                while (rs.next()) {
                    RunInfo info = rows.map(rs, 0);
                    infos.put(info.runId(), info);
                    started.put(info.runId(), rs.getString(RunRows.COLUMN_COUNT + 1));
                }
            }
            try (Sql.Call call = tx.call(loadEvents).set("ids", ids);
                    ResultSet rs = call.query()) {
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

    /** The projection of a run just created, as the row holds it (instants to the microsecond). */
    private static RunInfo createdInfo(NewRun run) {
        Instant createdAt = Micros.truncate(run.createdAt());
        return new RunInfo(
                run.runId(),
                run.workflow(),
                RunStatus.PENDING,
                run.input(),
                null,
                null,
                createdAt,
                createdAt,
                Micros.truncate(run.availableAt()),
                Micros.truncate(run.deadline()),
                run.queue(),
                run.priority(),
                1,
                null,
                null,
                null);
    }

    /** A run's events: its first record as its runs row holds it (or null), then its log's rows in order. */
    static List<Event> decode(EventCodec codec, String runId, String started, List<LogRow> rows) {
        List<LogRow> all = rows;
        if (started != null) {
            all = new ArrayList<>(rows.size() + 1);
            all.add(new LogRow(0, started));
            all.addAll(rows);
        }
        return JdbcEventLog.decode(codec, runId, all);
    }
}
