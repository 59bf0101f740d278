package io.worldflow.world.local;

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
import io.worldflow.world.jdbc.Tx;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.RunTarget;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class LocalEventLog implements EventLog {

    private static final String INSERT_RUN = """
            INSERT INTO runs (run_id, workflow, status, input_json, input_type, created_at, updated_at, available_at,
                              deadline, queue, priority, log_length)
            VALUES (?, ?, 'PENDING', ?, ?, ?, ?, ?, ?, ?, ?, 1)
            ON CONFLICT (run_id) DO NOTHING""";
    /** From the row that holds fromSeq: the last one starting at or before it. */
    private static final String READ = """
            SELECT seq, events FROM event_log
            WHERE run_id = ?1
              AND seq >= coalesce((SELECT max(seq) FROM event_log WHERE run_id = ?1 AND seq <= ?2), 0)
            ORDER BY seq""";
    private static final String EXISTS = "SELECT 1 FROM runs WHERE run_id = ?";
    private static final String REQUEST_CANCEL = """
            UPDATE runs SET cancel_requested = 1, cancel_reason = ?, cancel_requested_at = ?, updated_at = ?
            WHERE run_id = ?""";
    private static final String LOG_STATE = "SELECT log_length FROM runs WHERE run_id = ?";
    private static final String REOPEN = """
            UPDATE runs SET status = 'PENDING', log_length = ?, updated_at = ?, output_json = NULL, output_type = NULL,
                            error = NULL, held = NULL, held_since = NULL
            WHERE run_id = ?""";
    /** A hold keeps the time it began while it lasts; an append or a reopen ends it (both columns back to NULL). */
    private static final String HOLD =
            "UPDATE runs SET held = ?, held_since = COALESCE(held_since, ?), updated_at = ? WHERE run_id = ?";

    static final int LOAD_CHUNK = 200;

    private final Database db;
    private final EventCodec codec;
    private final InstantSource clock;
    private final RunRows rows;
    private final RunTarget.Reader targets = new RunTarget.Reader(LocalDialect.INSTANCE);
    private final AppendBatch batch;

    LocalEventLog(Database db, EventCodec codec, InstantSource clock) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
        this.rows = new RunRows(LocalDialect.INSTANCE, codec);
        this.batch = new AppendBatch();
    }

    @Override
    public CreateResult create(NewRun run) {
        return create(run, null, null);
    }

    /**
     * Creates the run; when {@code leaseTo} is not null and the run is new and due by now, its first turn is
     * leased to that worker for {@code leaseFor} in the same transaction.
     */
    CreateResult create(NewRun run, String leaseTo, Duration leaseFor) {
        Objects.requireNonNull(run, "run");
        WorkflowStarted started = run.startedEvent();
        String events = codec.encodeAll(List.of(started));
        return db.write("create", Failures.run(run.runId()), tx -> {
            PreparedStatement insert = tx.prepare(INSERT_RUN);
            insert.setString(1, run.runId());
            insert.setString(2, run.workflow());
            insert.setString(3, run.input().json());
            insert.setString(4, run.input().type());
            Micros.bind(insert, 5, run.createdAt());
            Micros.bind(insert, 6, run.createdAt());
            Micros.bind(insert, 7, run.availableAt());
            Micros.bind(insert, 8, run.deadline());
            insert.setString(9, run.queue());
            insert.setInt(10, run.priority());
            boolean created = insert.executeUpdate() > 0;
            Lease lease = null;
            if (created) {
                PreparedStatement log = tx.prepare(AppendBatch.INSERT_LOG_ROW);
                AppendBatch.bindLogRow(log, run.runId(), 0, 0, events);
                log.executeUpdate();
                Instant now = clock.instant();
                if (leaseTo != null && !run.availableAt().isAfter(now)) {
                    lease = TaskRows.insertLeased(tx, run.runId(), run.queue(), run.priority(), run.availableAt(),
                            leaseTo, Micros.truncate(now.plus(leaseFor)));
                } else {
                    TaskRows.insert(tx, run.runId(), run.queue(), run.priority(), run.availableAt());
                }
            }
            RunInfo info = rows.find(tx, run.runId()).orElseThrow();
            return new CreateResult(info, created, lease);
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
        return db.write("append", subject, tx -> batch.apply(tx, encoded, clock.instant()));
    }

    @Override
    public List<Event> read(String runId, long fromSeq) {
        Objects.requireNonNull(runId, "runId");
        List<LogRow> json = db.read("read", Failures.run(runId), sql -> {
            PreparedStatement ps = sql.prepare(READ);
            ps.setString(1, runId);
            ps.setLong(2, Math.max(0, fromSeq));
            List<LogRow> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LogRow(rs.getLong(1), rs.getString(2)));
                }
            }
            if (out.isEmpty() && !exists(sql, runId)) {
                return null;
            }
            return out;
        });
        if (json == null) {
            throw new RunNotFoundException(runId);
        }
        List<Event> events = new ArrayList<>();
        for (LogRow row : json) {
            for (Event e : codec.decodeAll(runId, row.seq(), row.events())) {
                if (e.seq() >= fromSeq) {
                    events.add(e);
                }
            }
        }
        return events;
    }

    /** Runs with their whole logs, read in one transaction, {@value #LOAD_CHUNK} runs per statement. */
    Map<String, LoadedRun> load(Collection<String> runIds) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(runIds));
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        db.read("load", ids.size() + " runs", sql -> {
            for (int from = 0; from < ids.size(); from += LOAD_CHUNK) {
                List<String> chunk = ids.subList(from, Math.min(ids.size(), from + LOAD_CHUNK));
                String marks = String.join(", ", Collections.nCopies(chunk.size(), "?"));
                Map<String, RunInfo> infos = new HashMap<>();
                PreparedStatement runs = sql.prepare("SELECT " + RunRows.COLUMNS + " FROM runs WHERE run_id IN (" + marks + ")");
                bind(runs, chunk);
                try (ResultSet rs = runs.executeQuery()) {
                    while (rs.next()) {
                        RunInfo info = rows.map(rs, 0);
                        infos.put(info.runId(), info);
                    }
                }
                Map<String, List<Event>> logs = new HashMap<>();
                PreparedStatement events = sql.prepare("SELECT run_id, seq, events FROM event_log WHERE run_id IN ("
                        + marks + ") ORDER BY run_id, seq");
                bind(events, chunk);
                try (ResultSet rs = events.executeQuery()) {
                    while (rs.next()) {
                        String runId = rs.getString(1);
                        logs.computeIfAbsent(runId, k -> new ArrayList<>())
                                .addAll(codec.decodeAll(runId, rs.getLong(2), rs.getString(3)));
                    }
                }
                for (String id : chunk) {
                    RunInfo info = infos.get(id);
                    if (info != null) {
                        out.put(id, new LoadedRun(info, logs.getOrDefault(id, List.of())));
                    }
                }
            }
            return null;
        });
        return out;
    }

    private static void bind(PreparedStatement ps, List<String> ids) throws SQLException {
        for (int i = 0; i < ids.size(); i++) {
            ps.setString(i + 1, ids.get(i));
        }
    }

    @Override
    public void requestCancel(String runId, String reason) {
        Objects.requireNonNull(runId, "runId");
        db.write("cancel", Failures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = targets.require(tx, runId, "cancel");
            if (!target.cancelRequested()) {
                PreparedStatement ps = tx.prepare(REQUEST_CANCEL);
                ps.setString(1, reason);
                Micros.bind(ps, 2, now);
                Micros.bind(ps, 3, now);
                ps.setString(4, runId);
                ps.executeUpdate();
            }
            TaskRows.makeDue(tx, runId, target.queue(), target.priority(), now, now);
            return null;
        });
    }

    @Override
    public void reopen(WorkflowRetried retried) {
        Objects.requireNonNull(retried, "retried");
        String runId = retried.runId();
        String events = codec.encodeAll(List.of(retried));
        db.write("reopen", Failures.run(runId), tx -> {
            RunTarget target = targets.find(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (target.status() != RunStatus.FAILED) {
                throw RunStateException.notFailed(runId, target.status());
            }
            long length = logLength(tx, runId);
            if (length != retried.seq()) {
                throw RunStateException.logMoved(runId, length, retried.seq());
            }
            PreparedStatement log = tx.prepare(AppendBatch.INSERT_LOG_ROW);
            AppendBatch.bindLogRow(log, runId, retried.seq(), retried.seq(), events);
            log.executeUpdate();
            PreparedStatement ps = tx.prepare(REOPEN);
            ps.setLong(1, retried.seq() + 1);
            Micros.bind(ps, 2, retried.at());
            ps.setString(3, runId);
            ps.executeUpdate();
            TaskRows.makeDue(tx, runId, target.queue(), target.priority(), retried.at(), clock.instant());
            return null;
        });
    }

    private static long logLength(Tx sql, String runId) throws SQLException {
        PreparedStatement ps = sql.prepare(LOG_STATE);
        ps.setString(1, runId);
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Records why the run is held. Unknown run: {@link RunNotFoundException}; a finished run is left as it is. */
    @Override
    public void hold(String runId, ErrorInfo reason) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
        String json = codec.encodeError(reason);
        db.write("hold", Failures.run(runId), tx -> {
            Optional<RunTarget> target = targets.find(tx, runId);
            if (target.isEmpty()) {
                throw new RunNotFoundException(runId);
            }
            if (!target.get().status().isTerminal()) {
                PreparedStatement ps = tx.prepare(HOLD);
                Instant now = clock.instant();
                ps.setString(1, json);
                Micros.bind(ps, 2, now);
                Micros.bind(ps, 3, now);
                ps.setString(4, runId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    private static boolean exists(Tx sql, String runId) throws SQLException {
        PreparedStatement ps = sql.prepare(EXISTS);
        ps.setString(1, runId);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }

    /** A stored row of the log: the events of one append, the first numbered {@code seq}. */
    private record LogRow(long seq, String events) {
    }
}
