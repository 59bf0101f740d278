package io.worldflow.world.local;

import io.worldflow.RunInfo;
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
import java.util.List;
import java.util.Map;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class LocalEventLog extends JdbcEventLog {

    static final int LOAD_CHUNK = 200;

    private static final Sql INSERT_RUN = Sql.of("""
            INSERT INTO runs (run_id, workflow, status, input_json, input_type, created_at, updated_at, available_at,
                              deadline, queue, priority, log_length)
            VALUES (:runId, :workflow, 'PENDING', :inputJson, :inputType, :createdAt, :createdAt, :availableAt,
                    :deadline, :queue, :priority, 1)
            ON CONFLICT (run_id) DO NOTHING""");

    private final AppendBatch batch = new AppendBatch();

    LocalEventLog(Database db, EventCodec codec, InstantSource clock) {
        super(db, codec, clock, null);
    }

    @Override
    protected CreateResult create(NewRun run, String events, String leaseTo, Duration leaseFor) {
        return db.write("create", Failures.run(run.runId()), tx -> {
            boolean created;
            try (Sql.Call call = bindRun(tx.call(INSERT_RUN), run)) {
                created = call.update() > 0;
            }
            Lease lease = null;
            if (created) {
                insertLogRow(tx, run.runId(), 0, 0, events);
                Instant now = clock.instant();
                if (leaseTo != null && !run.availableAt().isAfter(now)) {
                    lease = TaskRows.insertLeased(
                            tx,
                            run.runId(),
                            run.queue(),
                            run.priority(),
                            run.availableAt(),
                            leaseTo,
                            Micros.truncate(now.plus(leaseFor)));
                } else {
                    TaskRows.insert(tx, run.runId(), run.queue(), run.priority(), run.availableAt());
                }
            }
            RunInfo info = rows.find(tx, run.runId()).orElseThrow();
            return new CreateResult(info, created, lease);
        });
    }

    @Override
    protected List<AppendResult> append(List<EncodedAppend> encoded, String subject) {
        return db.write("append", subject, tx -> batch.apply(tx, encoded, clock.instant()));
    }

    /** Read in one transaction, {@value #LOAD_CHUNK} runs per statement. */
    @Override
    public Map<String, LoadedRun> load(Collection<String> runIds) {
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
                PreparedStatement runs =
                        sql.prepare("SELECT " + RunRows.COLUMNS + " FROM runs WHERE run_id IN (" + marks + ")");
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
}
