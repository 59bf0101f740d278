package io.worldflow.world.local;

import io.worldflow.format.ChainKey;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcEventLog;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.StartLeases;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class LocalEventLog extends JdbcEventLog {

    private static final Sql INSERT_RUN = Sql.of("""
            INSERT INTO runs (run_id, workflow, status, input_json, input_type, created_at, updated_at, available_at,
                              deadline, queue, priority, log_length, parent_run_id, continued_from, head, search_attributes,
                              order_key)
            VALUES (:runId, :workflow, 'PENDING', :inputJson, :inputType, :createdAt, :createdAt, :availableAt,
                    :deadline, :queue, :priority, 1, :parent, :continuedFrom, :head, :search, :orderKey)
            ON CONFLICT (run_id) DO NOTHING""");

    private final AppendBatch batch;

    LocalEventLog(Database db, EventCodec codec, InstantSource clock, ChainKey chainKey) {
        super(db, codec, clock, null, chainKey);
        this.batch = new AppendBatch(chainKey);
    }

    @Override
    protected CreateResult create(NewRun run, String events, String leaseTo, Instant expires) {
        return db.write("create", Failures.run(run.runId()), tx -> {
            boolean created = insertRun(tx, run, events);
            Lease lease = created ? LocalDialect.insertTurn(tx, run, leaseTo, expires) : null;
            return new CreateResult(rows.find(tx, run.runId()).orElseThrow(), created, lease);
        });
    }

    @Override
    protected void createIn(Tx tx, List<NewRun> runs, List<String> events, StartLeases leases) throws SQLException {
        for (int i = 0; i < runs.size(); i++) {
            NewRun run = runs.get(i);
            if (insertRun(tx, run, events.get(i))) {
                if (leases != null && leases.wants(run)) {
                    leases.leased(
                            run,
                            LocalDialect.insertTurn(tx, run, leases.owner(), leases.expires())
                                    .token());
                } else {
                    LocalDialect.insertTurn(tx, run, null, null);
                }
            }
        }
    }

    /** The run's row and its first record, which is its head, unless the id exists. */
    private boolean insertRun(Tx tx, NewRun run, String events) throws SQLException {
        byte[] link = firstLink(run, events);
        boolean created = bindRun(tx.call(INSERT_RUN), run).set("head", link).update() > 0;
        if (created) {
            insertLogRow(tx, run.runId(), 0, 0, events, link);
            search.created(tx, run);
        }
        return created;
    }

    /** The batch's appends, then the effects of those that went through, in one transaction. */
    @Override
    protected List<AppendResult> append(List<EncodedAppend> encoded, String subject, StartLeases leases) {
        return db.write("append", subject, tx -> {
            List<AppendResult> results = batch.apply(tx, encoded, clock.instant());
            if (EncodedAppend.anySearchChanges(encoded)) {
                indexSearch(tx, encoded, results);
            }
            if (EncodedAppend.anyEffects(encoded)) {
                applyEffects(tx, encoded, results, leases);
            }
            return results;
        });
    }
}
